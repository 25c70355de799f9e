"""The rules of Svara as a pure, synchronous state machine."""
