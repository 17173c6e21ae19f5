"""Tests of companion/review/."""
