"""What a user meets: the commands, their help, the docs, the installed wheel, the layering."""
