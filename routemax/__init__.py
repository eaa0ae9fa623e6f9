"""Generated gRPC/protobuf stubs of proto/routemax (do not edit; see server/protogen.py)."""
