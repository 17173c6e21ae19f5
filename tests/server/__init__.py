"""Tests of companion/server/."""
