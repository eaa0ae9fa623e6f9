"""Routes: the candidate routes of a board priced per train class (`candidates`), claimed routes
read and named (`claims`) and held to the limits (`claim_limits`)."""
