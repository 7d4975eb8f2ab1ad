"""``GET /api/catalog``: the games and what a table of each may be created with
(:mod:`mazziere.catalog`), for the lobby's create form. No login needed; computed once."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter

from mazziere.catalog import catalog

router = APIRouter()


@cache
def cached_catalog() -> dict[str, Any]:
    """The catalog, computed on first use (the rules do not change while the server runs)."""
    return catalog()


@router.get("/api/catalog")
async def get_catalog() -> dict[str, Any]:
    return cached_catalog()
