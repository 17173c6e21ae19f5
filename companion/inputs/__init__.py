"""What comes in from outside, made safe: player names, and the bounds of every date and number."""
