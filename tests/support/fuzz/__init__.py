"""Property-test helpers: real corpus boards, their field-by-field mutations, and raw JSON as protobuf."""
