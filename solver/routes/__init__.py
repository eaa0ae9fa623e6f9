"""Routes: the candidate routes of a board priced per train class (`candidates`), over the stops the
company's trains may reach from its stations (`station_reach`) and with the walk's bounds (`route_bound`);
claimed routes read and named (`claims`) and held to the limits (`claim_limits`)."""
