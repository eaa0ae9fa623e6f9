"""Routes: the candidate routes of a board (`candidates`): the legs between stops (`leg_graph`) over the stops
the company's trains may reach from its stations (`station_reach`), the route shapes walked over them (`walk`,
with the walk's bounds, `route_bound`), priced per train class (`pricing`); claimed routes read and named
(`claims`) and held to the limits (`claim_limits`)."""
