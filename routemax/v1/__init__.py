"""routemax.v1 stubs, generated from proto/routemax/v1/routemax.proto."""
