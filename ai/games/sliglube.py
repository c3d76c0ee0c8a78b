"""Sliglube: random playouts end by stalemate; nothing to cut off."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.games import Knowledge


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    return Knowledge()
