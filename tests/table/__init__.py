"""Tests of companion/table/."""
