/* The route walk of solver/routes/walk.py (`enumerate_routes` without a bound), compiled: the same
 * depth-first walk in the same order, keeping the same routes. solver/routes/walk_native.py numbers the
 * nodes and the walk's steps (a leg from a node), hands the tables over and reads the routes back as
 * arrays: per route its nodes and steps, its track as `tw` 64-bit words, its crossings, visit cost and
 * token. `rm_route_values` then sums what each route's stops pay from some tables and tells which node
 * sets it meets, for the candidates priced on read (solver/routes/priced_on_read.py).
 *
 * Bit sets (seen nodes, node sets, track) are arrays of 64-bit words, bit i at bit i % 64 of word i / 64.
 * Plain C99 with no Python headers: it is loaded with ctypes.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ABI 4
#define KINDS 6 /* `walk.NODE_KINDS`, KIND_BITS = 20 bits a kind (the layout `keep` writes) */

/* a leg's terminal paths (`Leg.may_stand`) */
#define TERM_ANY 1          /* any terminal path: its place in a route matters */
#define TERM_INNER 2        /* a terminal path inside: never in a route */
#define TERM_ALONE_FIRST 4  /* one path, terminal: first or last leg only */
#define TERM_FIRST 8        /* first leg only */
#define TERM_LAST 16        /* last leg only */

typedef struct {
    int64_t nroutes, nentries;   /* routes kept; node entries in `nodes` */
    int64_t cap_routes, cap_entries;
    int32_t *off;                /* per route, its first entry in `nodes` (nroutes + 1 of them) */
    int32_t *nodes;              /* the routes' nodes, one after another */
    int32_t *steps;              /* the routes' steps, route k's from off[k] - k (one fewer than its nodes) */
    uint64_t *masks;             /* per route, its track: tw words */
    int32_t *cross, *cost;       /* per route, its hex crossings and visit cost */
    uint8_t *token;              /* per route, whether a stop has the company's token */
    uint64_t *codes;             /* per route, its visit cost per node kind (`walk.kind_code`): two words */
    int32_t stopped, failed;
    int32_t raised;              /* the branch and bound's `improve` raised (the walk stopped there) */     /* cut short (cap, deadline, cancel); out of memory */
} WalkOut;

/* the branch and bound's pricing of route k (just kept, its nodes and steps given): the best price so far
 * less the bound's constant, or INT64_MIN to stop the walk (the Python side raised) */
typedef int64_t (*Improve)(int64_t k, int32_t len, const int32_t *nodes, const int32_t *steps);

#define MODE_PLAIN 0
#define MODE_FLOORS 1  /* `bound` and `floors` */
#define MODE_IMPROVE 2 /* `bound` and `improve` */

typedef struct {
    int32_t sw, tw;
    const int32_t *sstart, *sto, *scross;  /* steps per node (from sstart[n] to sstart[n + 1]) */
    const uint64_t *smask;                 /* per step, its track: tw words */
    const uint8_t *sterm;                  /* per step, its leg's TERM_ flags */
    const int32_t *nvisit, *nend, *nhex;   /* per node: visit cost, order where a route may end (-1: none), hex */
    const int32_t *nkind;                  /* per node, its kind's place in `walk.NODE_KINDS` */
    const int32_t *ncost;                  /* per node, its visit cost (the kind code's; `nvisit` may be a bound's) */
    /* the distance test beyond `sure_cost`: crossings within `sure_cross` (hex trains), or a list train whose
     * rows take the route's visit cost per kind (`pour_fits_costs`): rows lstart[t] to lstart[t + 1], each
     * with its visits and its kinds as bits */
    int32_t sure_cross, nlists;
    const int32_t *lstart, *rvisit;
    const uint8_t *rkinds;
    int32_t *per_kind;                     /* per depth: the route's visit cost per kind */
    const uint8_t *ntok, *npass;           /* per node: tokened by the company, a route may pass it */
    const uint64_t *ngroups;               /* per node, its groups as bits */
    int32_t per_hex, need_token, gate_always, sure_cost;
    int64_t cap, check_every, walked;
    double deadline;
    const volatile int32_t *cancelled;
    int32_t *path, *legs, *hexcount;
    uint64_t *seen, *mask;                 /* per depth: sw and tw words */
    int32_t first;
    WalkOut *out;
    /* with floors (`enumerate_routes`' `bound` and `floors`): per step what it adds and, per stops left
     * (0 to longest), the most a continuation adds; per visit cost the least a kept route adds up to, and
     * the classes a route may grow for (their stops left and floors, from gstart[cost] to gstart[cost + 1]) */
    int32_t mode, longest;
    const int64_t *sweight, *sahead, *keep_need, *gneed;
    const int32_t *gstart, *gleft;
    /* a branch and bound (MODE_IMPROVE, `enumerate_routes`' `improve` in the plain walk order): what a kept
     * route must add up to (the best price so far less the bound's constant) and whether a route earned it */
    Improve improve;
    int64_t need;
    int32_t have_best;
} Walk;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int may_stand(uint8_t term, int32_t index, int32_t count) {
    if (term & TERM_INNER) return 0;
    int first = index == 0, last = index == count - 1;
    if (term & TERM_ALONE_FIRST) return first || last;
    return (!(term & TERM_FIRST) || first) && (!(term & TERM_LAST) || last);
}

/* *p resized to `bytes`: whether it could be (left as it was when not) */
static int resize(void **p, size_t bytes) {
    void *q = realloc(*p, bytes);
    if (!q) return 0;
    *p = q;
    return 1;
}

#define RESIZE(field, count) resize((void **)&(field), (size_t)(count) * sizeof *(field))

static int grow_routes(WalkOut *o, int64_t routes, int32_t tw) {
    if (routes <= o->cap_routes) return 1;
    int64_t cap = o->cap_routes ? o->cap_routes * 2 : 1024;
    while (cap < routes) cap *= 2;
    if (!RESIZE(o->off, cap + 1) || !RESIZE(o->masks, cap * tw) || !RESIZE(o->cross, cap) ||
        !RESIZE(o->cost, cap) || !RESIZE(o->token, cap) || !RESIZE(o->codes, cap * 2))
        return 0;
    o->cap_routes = cap;
    return 1;
}

static int grow_entries(WalkOut *o, int64_t entries) {
    if (entries <= o->cap_entries) return 1;
    int64_t cap = o->cap_entries ? o->cap_entries * 2 : 8192;
    while (cap < entries) cap *= 2;
    if (cap > INT32_MAX || !RESIZE(o->nodes, cap) || !RESIZE(o->steps, cap)) return 0;
    o->cap_entries = cap;
    return 1;
}

/* keep the route of the first `len` nodes of the path */
static int keep(Walk *w, int32_t len, const uint64_t *mask, int32_t cross, int32_t cost, int token) {
    WalkOut *o = w->out;
    int64_t k = o->nroutes;
    if (!grow_routes(o, k + 1, w->tw) || !grow_entries(o, o->nentries + len)) {
        o->failed = 1;
        return 0;
    }
    int32_t at = (int32_t)o->nentries;
    o->off[k] = at;
    memcpy(o->nodes + at, w->path, (size_t)len * sizeof(int32_t));
    memcpy(o->steps + at - k, w->legs, (size_t)(len - 1) * sizeof(int32_t));
    memcpy(o->masks + k * w->tw, mask, (size_t)w->tw * sizeof(uint64_t));
    o->cross[k] = cross;
    o->cost[k] = cost;
    o->token[k] = (uint8_t)token;
    uint64_t per_kind[KINDS] = {0}; /* each below 2**KIND_BITS */
    for (int32_t i = 0; i < len; i++) per_kind[w->nkind[w->path[i]]] += (uint64_t)w->ncost[w->path[i]];
    /* kind i at bit KIND_BITS * i of 128: kinds 0 to 2 in the low word, kind 3 across both, 4 and 5 high */
    o->codes[2 * k] = per_kind[0] | per_kind[1] << 20 | per_kind[2] << 40 | per_kind[3] << 60;
    o->codes[2 * k + 1] = per_kind[3] >> 4 | per_kind[4] << 16 | per_kind[5] << 36;
    o->nroutes = k + 1;
    o->nentries = at + len;
    o->off[k + 1] = (int32_t)o->nentries;
    return 1;
}

static int expired(const Walk *w) {
    return (w->deadline >= 0 && now() > w->deadline) || (w->cancelled && *w->cancelled);
}

/* `enumerate_routes`' grow: the path holds `depth` nodes; returns 0 once the walk must stop */
/* `train_rules.pour_fits_costs`: whether rows first..last-1 take these visit costs per kind, the kinds fewer
 * rows accept poured first (in kind order among equals), each into the rows that accept it in order */
static int pour_fits(const Walk *w, int32_t first, int32_t last, const int32_t *per_kind) {
    int32_t capacity[64], order[KINDS], accepting[KINDS], n = 0;
    if (last - first > 64) return 0;
    for (int32_t r = first; r < last; r++) capacity[r - first] = w->rvisit[r];
    for (int32_t k = 0; k < KINDS; k++) {
        if (!per_kind[k]) continue;
        accepting[k] = 0;
        for (int32_t r = first; r < last; r++) accepting[k] += (w->rkinds[r] >> k) & 1;
        int32_t at = n++; /* a stable insertion by the number of rows accepting the kind */
        while (at > 0 && accepting[order[at - 1]] > accepting[k]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = k;
    }
    for (int32_t i = 0; i < n; i++) {
        const int32_t k = order[i];
        int32_t left = per_kind[k];
        for (int32_t r = first; r < last && left > 0; r++) {
            if (!((w->rkinds[r] >> k) & 1)) continue;
            const int32_t take = left < capacity[r - first] ? left : capacity[r - first];
            capacity[r - first] -= take;
            left -= take;
        }
        if (left > 0) return 0;
    }
    return 1;
}

/* whether some train's distance admits a route of this visit cost, crossings and visit cost per kind */
static int admits(const Walk *w, int32_t cost, int32_t cross, const int32_t *per_kind) {
    if (w->gate_always || cost <= w->sure_cost || cross <= w->sure_cross) return 1;
    for (int32_t t = 0; t < w->nlists; t++)
        if (pour_fits(w, w->lstart[t], w->lstart[t + 1], per_kind)) return 1;
    return 0;
}

/* whether a route adding up to `value` at visit cost `cost`, with `ahead` the most a continuation adds per
 * stops left, may grow into a route some class may keep */
static int may_grow(const Walk *w, int32_t cost, int64_t value, const int64_t *ahead) {
    for (int32_t g = w->gstart[cost]; g < w->gstart[cost + 1]; g++)
        if (value + ahead[w->gleft[g]] >= w->gneed[g]) return 1;
    return 0;
}

static int grow(Walk *w, int32_t depth, uint64_t groups, int32_t cross, int32_t cost, int token, int64_t value) {
    w->walked++;
    if (w->walked % w->check_every == 0 && expired(w)) {
        w->out->stopped = 1;
        return 0;
    }
    const int32_t sw = w->sw, tw = w->tw, n_legs = depth - 1;
    const uint64_t *seen = w->seen + (size_t)(depth - 1) * sw, *mask = w->mask + (size_t)(depth - 1) * tw;
    uint64_t *new_seen = w->seen + (size_t)depth * sw, *new_mask = w->mask + (size_t)depth * tw;
    const int32_t node = w->path[depth - 1];
    for (int32_t s = w->sstart[node]; s < w->sstart[node + 1]; s++) {
        const int32_t b = w->sto[s];
        const uint64_t *leg_mask = w->smask + (size_t)s * tw;
        int clash = 0;
        for (int32_t i = 0; i < tw; i++)
            if (leg_mask[i] & mask[i]) { clash = 1; break; }
        if (clash || (seen[b >> 6] >> (b & 63) & 1)) continue;
        const uint8_t term = w->sterm[s];
        if ((term & TERM_ANY) && !may_stand(term, n_legs, n_legs + 1)) continue;
        if (w->ngroups[b] & groups) continue;
        if (w->per_hex && w->hexcount[w->nhex[b]]) continue;
        const int32_t new_cost = cost + w->nvisit[b];
        const int32_t new_cross = cross + w->scross[s];
        int32_t *per_kind = w->per_kind + (size_t)depth * KINDS;  /* the route's, with this step */
        memcpy(per_kind, w->per_kind + (size_t)(depth - 1) * KINDS, KINDS * sizeof(int32_t));
        per_kind[w->nkind[b]] += w->ncost[b];
        if (new_cost > w->sure_cost && !admits(w, new_cost, new_cross, per_kind)) continue;
        if (w->mode != MODE_PLAIN && new_cost > w->longest) continue; /* beyond the bound's tables */
        const int new_token = token || w->ntok[b];
        const int64_t new_value = w->mode != MODE_PLAIN ? value + w->sweight[s] : 0;
        const int64_t *ahead = w->mode != MODE_PLAIN ? w->sahead + (size_t)s * (w->longest + 1) : NULL;
        int kept = w->first < w->nend[b] && (new_token || !w->need_token);
        int go_on = w->npass[b] && !((term & TERM_ANY) && !may_stand(term, n_legs, n_legs + 2));
        if (w->mode == MODE_FLOORS) {
            kept = kept && new_value >= w->keep_need[new_cost];
            go_on = go_on && may_grow(w, new_cost, new_value, ahead);
        } else if (w->mode == MODE_IMPROVE) { /* a route that can at most tie the best, found before it: none */
            kept = kept && new_value >= w->need && !(new_value == w->need && w->have_best);
            go_on = go_on && new_value + ahead[w->longest - new_cost] >= w->need;
        }
        if (!(kept || go_on)) continue;
        w->path[depth] = b;
        w->legs[depth - 1] = s;
        for (int32_t i = 0; i < tw; i++) new_mask[i] = mask[i] | leg_mask[i];
        if (kept) {
            if (!keep(w, depth + 1, new_mask, new_cross, new_cost, new_token)) return 0;
            if (w->mode == MODE_IMPROVE) {
                const int64_t found = w->improve(w->out->nroutes - 1, depth + 1, w->path, w->legs);
                if (found == INT64_MIN) {
                    w->out->raised = w->out->stopped = 1;
                    return 0;
                }
                if (found > w->need) {
                    w->need = found;
                    w->have_best = 1;
                }
            }
            if (w->out->nroutes >= w->cap ||
                (w->deadline >= 0 && w->out->nroutes % 64 == 0 && now() > w->deadline)) {
                w->out->stopped = 1;
                return 0;
            }
        }
        if (go_on && (w->mode != MODE_IMPROVE || new_value + ahead[w->longest - new_cost] >= w->need)) {
            memcpy(new_seen, seen, (size_t)sw * sizeof(uint64_t));
            new_seen[b >> 6] |= (uint64_t)1 << (b & 63);
            if (w->per_hex) w->hexcount[w->nhex[b]]++;
            int ok = grow(w, depth + 1, groups | w->ngroups[b], new_cross, new_cost, new_token, new_value);
            if (w->per_hex) w->hexcount[w->nhex[b]]--;
            if (!ok) return 0;
        }
    }
    return 1;
}

int32_t rm_routewalk_abi(void) { return ABI; }

void rm_walk_free(WalkOut *o) {
    free(o->off);
    free(o->nodes);
    free(o->steps);
    free(o->masks);
    free(o->cross);
    free(o->cost);
    free(o->token);
    free(o->codes);
    memset(o, 0, sizeof(*o));
}

/* Every route from each start in turn (`starts`, with the order `firsts` of each: a route is kept from its
 * lower end only; with a bound, what each start adds in `start_values`, and for a branch and bound the most a
 * route from it adds in `start_bounds`, `need` the first best); `o` holds them (free it with rm_walk_free).
 * Returns 0, or 1 when out of memory. */
int rm_walk(int32_t nn, int32_t sw, int32_t tw, int32_t nhexes, const int32_t *sstart, const int32_t *sto,
            const int32_t *scross, const uint64_t *smask, const uint8_t *sterm, const int32_t *nvisit,
            const int32_t *nend, const int32_t *nhex, const int32_t *nkind, const int32_t *ncost, const uint8_t *ntok,
            const uint8_t *npass,
            const uint64_t *ngroups, int32_t nstarts, const int32_t *starts, const int32_t *firsts,
            int32_t per_hex, int32_t need_token, int32_t gate_always, int32_t sure_cost, int32_t sure_cross,
            int32_t nlists, const int32_t *lstart, const int32_t *rvisit, const uint8_t *rkinds, int64_t cap,
            double deadline, int64_t check_every, const volatile int32_t *cancelled, int32_t mode,
            int32_t longest, const int64_t *sweight, const int64_t *sahead, const int64_t *keep_need,
            const int32_t *gstart, const int32_t *gleft, const int64_t *gneed, const int64_t *start_values,
            const int64_t *start_bounds, Improve improve, int64_t need, WalkOut *o) {
    Walk w = {.sw = sw, .tw = tw, .sstart = sstart, .sto = sto, .scross = scross, .smask = smask,
              .sterm = sterm, .nvisit = nvisit, .nend = nend, .nhex = nhex, .nkind = nkind, .ncost = ncost, .ntok = ntok, .npass = npass,
              .ngroups = ngroups, .per_hex = per_hex, .need_token = need_token, .gate_always = gate_always,
              .sure_cost = sure_cost, .sure_cross = sure_cross, .nlists = nlists, .lstart = lstart,
              .rvisit = rvisit, .rkinds = rkinds, .cap = cap, .check_every = check_every > 0 ? check_every : 1,
              .deadline = deadline, .cancelled = cancelled, .out = o, .mode = mode, .longest = longest,
              .sweight = sweight, .sahead = sahead, .keep_need = keep_need, .gstart = gstart, .gleft = gleft,
              .gneed = gneed, .improve = improve, .need = need};
    memset(o, 0, sizeof(*o));
    size_t depth = (size_t)nn + 2;
    w.path = malloc(depth * sizeof(int32_t));
    w.legs = malloc(depth * sizeof(int32_t));
    w.hexcount = calloc((size_t)nhexes + 1, sizeof(int32_t));
    w.seen = malloc(depth * (size_t)(sw > 0 ? sw : 1) * sizeof(uint64_t));
    w.mask = malloc(depth * (size_t)(tw > 0 ? tw : 1) * sizeof(uint64_t));
    w.per_kind = calloc(depth * KINDS, sizeof(int32_t));
    int failed = !w.path || !w.legs || !w.hexcount || !w.seen || !w.mask || !w.per_kind || !grow_routes(o, 1, tw);
    if (!failed) o->off[0] = 0;
    for (int32_t i = 0; i < nstarts && !failed; i++) {
        const int32_t start = starts[i];
        if (mode == MODE_IMPROVE && start_bounds[i] < w.need) continue; /* no route from here earns the best */
        w.first = firsts[i];
        memset(w.hexcount, 0, ((size_t)nhexes + 1) * sizeof(int32_t));
        w.hexcount[nhex[start]] = 1;
        w.path[0] = start;
        memset(w.seen, 0, (size_t)sw * sizeof(uint64_t));
        w.seen[start >> 6] |= (uint64_t)1 << (start & 63);
        memset(w.mask, 0, (size_t)tw * sizeof(uint64_t));
        memset(w.per_kind, 0, KINDS * sizeof(int32_t));
        w.per_kind[nkind[start]] = ncost[start];
        if (!grow(&w, 1, ngroups[start], 0, nvisit[start], ntok[start], mode != MODE_PLAIN ? start_values[i] : 0))
            break;
    }
    failed = failed || o->failed;
    free(w.path);
    free(w.legs);
    free(w.hexcount);
    free(w.seen);
    free(w.mask);
    free(w.per_kind);
    if (failed) rm_walk_free(o);
    return failed;
}

/* Per route of `off`/`nodes`: what its stops pay summed per table (`tables`: ntab rows of nn values; out
 * `values`, ntab per route), and which of the ntest node sets (`sets`, sw words each) it meets (out `hits`,
 * bit t per set t; a set with `ends_only` is met by the route's first or last node only). */
void rm_route_values(int64_t nroutes, const int32_t *off, const int32_t *nodes, int32_t nn, int32_t ntab,
                     const int64_t *tables, int32_t ntest, int32_t sw, const uint64_t *sets,
                     const uint8_t *ends_only, int64_t *values, uint64_t *hits) {
    for (int64_t k = 0; k < nroutes; k++) {
        const int32_t *r = nodes + off[k];
        const int32_t len = off[k + 1] - off[k];
        for (int32_t t = 0; t < ntab; t++) {
            const int64_t *table = tables + (size_t)t * nn;
            int64_t sum = 0;
            for (int32_t i = 0; i < len; i++) sum += table[r[i]];
            values[k * ntab + t] = sum;
        }
        uint64_t hit = 0;
        for (int32_t t = 0; t < ntest; t++) {
            const uint64_t *set = sets + (size_t)t * sw;
            int met = 0;
            if (ends_only[t]) {
                met = (set[r[0] >> 6] >> (r[0] & 63) & 1) || (set[r[len - 1] >> 6] >> (r[len - 1] & 63) & 1);
            } else {
                for (int32_t i = 0; i < len && !met; i++) met = set[r[i] >> 6] >> (r[i] & 63) & 1;
            }
            if (met) hit |= (uint64_t)1 << t;
        }
        hits[k] = hit;
    }
}
