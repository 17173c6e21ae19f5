"""Tests of companion/library/."""
