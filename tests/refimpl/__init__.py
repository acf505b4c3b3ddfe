"""The reference pass in its three modes, against upstream where it is installed."""
