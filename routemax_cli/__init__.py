"""The command line and the batch audit: they call the solver library directly and never import gRPC."""
