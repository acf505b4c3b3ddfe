"""What a person or a program reads: verdict records in text and JSON, the
happens-before graph as DOT, the timeline picture, progress on stderr."""
