"""Tests of companion/live/."""
