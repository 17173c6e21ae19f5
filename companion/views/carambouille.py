"""The carambouille table page's actions."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("carambouille", __name__)
