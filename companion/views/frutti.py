"""The frutti table page's actions."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("frutti", __name__)
