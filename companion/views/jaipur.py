"""The jaipur table page's actions."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("jaipur", __name__)
