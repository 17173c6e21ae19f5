"""Tests of companion/forms/."""
