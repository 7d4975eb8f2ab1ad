"""HTTP routes of the server, one module per concern, each an APIRouter."""
