"""Tests of companion/web/."""
