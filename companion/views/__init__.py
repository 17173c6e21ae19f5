"""One blueprint per area of the app."""
