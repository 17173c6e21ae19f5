"""Tests of companion/inputs/."""
