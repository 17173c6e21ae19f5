"""Tests of companion/views/."""
