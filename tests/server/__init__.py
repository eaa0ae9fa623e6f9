"""Tests of the gRPC and HTTP service `server/`: conversion, the protocols, processes."""
