"""Terminal tables for UNO and draw poker (rich), driven by ``mazziere play``."""
