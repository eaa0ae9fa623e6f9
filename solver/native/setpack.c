/* The branch and bound of solver/packing/setpack.py (`best_packing`), compiled: the same search in the
 * same order with the same bounds, so it finds the same packing after the same number of nodes. The
 * Python module prepares every table (options by value, merged keys, class sets, class tops) and is the
 * reference; solver/packing/setpack_native.py hands the tables over and reads the answer back.
 *
 * Bit sets over options are arrays of `nw` 64-bit words, option j at bit j % 64 of word j / 64; the best
 * open option is the highest set bit. A node's open set is kept in a buffer per depth, and only the words
 * up to its highest set bit are read. The options left open by an option's merged keys are cached per key
 * mask (up to the word of the mask's highest option: an option's set is read only below it), and the part of
 * each group of 16 keys too, within `cache_words` words (then computed each time).
 * Plain C99 with no Python headers: it is loaded with ctypes.
 */
#define _DEFAULT_SOURCE /* clock_gettime, posix_memalign, madvise */
#include <sys/mman.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GROUP_KEYS 16

typedef struct {
    int32_t n, nw, kw, nkeys, ngroups;
    const int64_t *vals, *prefix;
    const uint64_t *kmask, *users;
    const int32_t *fitid, *wstart, *wlen, *widx, *alone, *room;
    const uint64_t *closes, *fitting;
    int32_t nsets, ncls, active;
    int32_t *used, *left, *chosen, nchosen, *best_set, nbest;
    uint64_t *buf, *scratch;       /* per depth: the node's open set, its child and a scratch set; per group */
    const uint64_t **group_parts;  /* the parts of one key mask (`parts_of`) */
    int64_t *tops;
    int64_t best, nodes, cache_left;
    int stopped, failed;
    double deadline;
    int64_t node_limit, check_every;
    const volatile int32_t *cancelled; /* set by the caller's cancel token (from another thread) */
    uint32_t *pkeys;               /* the parts cache: per (group, 16-bit group mask), plus one (0: empty) ... */
    uint64_t **pvals;              /* ... the options clear of those keys */
    size_t pcap, pused;
    uint64_t *hkeys;               /* the left-open cache: key masks (kw words each) ... */
    uint64_t **hvals;              /* ... and their open sets (NULL: not made yet) ... */
    int32_t *hwords;               /* ... of this many words (0: an empty slot) */
    size_t hcap;
    uint64_t **chunks;             /* the cached sets' memory, in chunks handed out in order */
    size_t nchunks, chunk_left;
    uint64_t *chunk_next;
} Search;

#define CHUNK_WORDS ((size_t)1 << 18) /* 2 MiB */
#define MAX_CHUNKS 4096

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int top_bit(const uint64_t *x, int hiw) {
    for (int w = hiw; w >= 0; w--)
        if (x[w]) return w * 64 + 63 - __builtin_clzll(x[w]);
    return -1;
}

/* A chunk of `words` words for the cache: aligned to and asking for huge pages where the system has them (one
 * page fault per 2 MiB instead of 512: faults cost as much as the search on long lists); NULL when out of memory. */
static uint64_t *chunk_alloc(size_t words) {
    void *chunk = NULL;
    if (posix_memalign(&chunk, CHUNK_WORDS * sizeof(uint64_t), sizeof(uint64_t) * words)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(chunk, sizeof(uint64_t) * words, MADV_HUGEPAGE);
#endif
    return chunk;
}

/* Room for one cached set of `nw` words, or NULL when the cache is full (the set is then made each time). */
static uint64_t *cache_alloc(Search *s, size_t nw) {
    if (s->cache_left < (int64_t)nw) return NULL;
    if (s->chunk_left < nw) {
        size_t words = nw > CHUNK_WORDS ? nw : CHUNK_WORDS;
        uint64_t *chunk = s->nchunks < MAX_CHUNKS ? chunk_alloc(words) : NULL;
        if (chunk == NULL) return NULL;
        s->chunks[s->nchunks++] = chunk;
        s->chunk_next = chunk;
        s->chunk_left = words;
    }
    uint64_t *p = s->chunk_next;
    s->chunk_next += nw;
    s->chunk_left -= nw;
    s->cache_left -= (int64_t)nw;
    return p;
}

static size_t part_slot(const Search *s, uint32_t key) {
    size_t h = ((size_t)key * 0x9E3779B97F4A7C15ULL) >> 7;
    for (h &= s->pcap - 1; s->pkeys[h] != 0 && s->pkeys[h] != key; h = (h + 1) & (s->pcap - 1)) {}
    return h;
}

/* Doubles the parts table (0 when memory ran out: the part is then made each time). */
static int parts_grow(Search *s) {
    size_t old = s->pcap;
    uint32_t *keys = s->pkeys;
    uint64_t **vals = s->pvals;
    uint32_t *new_keys = calloc(old * 2, sizeof(uint32_t));
    uint64_t **new_vals = calloc(old * 2, sizeof(uint64_t *));
    if (new_keys == NULL || new_vals == NULL) {
        free(new_keys);
        free(new_vals);
        return 0;
    }
    s->pkeys = new_keys;
    s->pvals = new_vals;
    s->pcap = old * 2;
    for (size_t i = 0; i < old; i++)
        if (keys[i]) {
            size_t h = part_slot(s, keys[i]);
            s->pkeys[h] = keys[i];
            s->pvals[h] = vals[i];
        }
    free(keys);
    free(vals);
    return 1;
}

/* The part of group g for its key mask `group`: the options clear of those keys (cached while the cache has
 * room, else made in the group's scratch set). */
static const uint64_t *part_of(Search *s, int g, unsigned group) {
    uint32_t key = ((uint32_t)g << GROUP_KEYS | group) + 1;
    size_t h = part_slot(s, key);
    if (s->pkeys[h] == key) return s->pvals[h];
    int nw = s->nw;
    uint64_t *made = (s->pused + 1) * 2 <= s->pcap || parts_grow(s) ? cache_alloc(s, (size_t)nw) : NULL;
    uint64_t *into = made != NULL ? made : s->scratch + (size_t)g * nw;
    for (int w = 0; w < nw; w++) into[w] = ~0ULL;
    for (unsigned rest = group; rest; rest &= rest - 1) {
        const uint64_t *u = s->users + (size_t)(g * GROUP_KEYS + __builtin_ctz(rest)) * nw;
        for (int w = 0; w < nw; w++) into[w] &= ~u[w];
    }
    if (made != NULL) {
        h = part_slot(s, key);
        s->pkeys[h] = key;
        s->pvals[h] = made;
        s->pused++;
    }
    return into;
}

/* The parts of key mask `km`'s groups (one AND each gives the options clear of the mask); their count. */
static int parts_of(Search *s, const uint64_t *km, const uint64_t **parts) {
    int np = 0;
    for (int g = 0; g < s->ngroups; g++) {
        unsigned group = (unsigned)((km[g / 4] >> (GROUP_KEYS * (g % 4))) & 0xFFFFu);
        if (group) parts[np++] = part_of(s, g, group);
    }
    return np;
}

/* `out` = words 0..hiw of `start` without the options holding a key of key mask `km`. */
static void clear_of(Search *s, const uint64_t *km, const uint64_t *start, int hiw, uint64_t *out) {
    const uint64_t **parts = s->group_parts;
    int np = parts_of(s, km, parts);
    memcpy(out, start, sizeof(uint64_t) * (size_t)(hiw + 1));
    for (int i = 0; i < np; i++) /* a part at a time: the loop over words vectorises */
        for (int w = 0; w <= hiw; w++) out[w] &= parts[i][w];
}

static size_t key_hash(const uint64_t *km, int kw) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < kw; i++) h = (h ^ km[i]) * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ (h >> 29));
}

/* The slot of key mask `km` in the left-open cache (an empty one when it is not there). */
static size_t key_slot(const Search *s, const uint64_t *km) {
    int kw = s->kw;
    size_t h = key_hash(km, kw) & (s->hcap - 1);
    while (s->hwords[h] && memcmp(s->hkeys + h * (size_t)kw, km, sizeof(uint64_t) * (size_t)kw) != 0)
        h = (h + 1) & (s->hcap - 1);
    return h;
}

/* Every option's key mask in the cache, with the words its set needs: an option's set is read only below its
 * own number, so up to the highest option of the mask. */
static void key_words(Search *s) {
    for (int j = 0; j < s->n; j++) {
        const uint64_t *km = s->kmask + (size_t)j * s->kw;
        size_t h = key_slot(s, km);
        memcpy(s->hkeys + h * (size_t)s->kw, km, sizeof(uint64_t) * (size_t)s->kw);
        s->hwords[h] = j / 64 + 1;
    }
}

/* The options that share no key with option j's key mask `km`, in the words up to j's (those the search reads):
 * cached while the cache has room, else made in `tmp`. */
static const uint64_t *left_open(Search *s, const uint64_t *km, uint64_t *tmp, const uint64_t *full) {
    size_t h = key_slot(s, km);
    if (s->hvals[h] != NULL) return s->hvals[h];
    int words = s->hwords[h];
    uint64_t *made = cache_alloc(s, (size_t)words);
    uint64_t *into = made != NULL ? made : tmp;
    clear_of(s, km, full, words - 1, into);
    s->hvals[h] = made;
    return into;
}

/* The least option number k with a value above `need` (n: none): a run needing more than `need` from one
 * option finds none below it (values are sorted). */
static int first_above(const Search *s, int64_t need) {
    int lo = 0, hi = s->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->vals[mid] > need) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* The least t for which the bound "`base` plus the options numbered just below t, for `slots` - 1 trains" beats
 * the best run (n + 1: none does): a node's child passes it only if its top option is numbered t - 1 or more
 * (t is one past the child's top option; the sum grows with t). */
static int least_top(const Search *s, int64_t base, int slots) {
    int lo = 0, hi = s->n + 1;
    while (lo < hi) {
        int t = (lo + hi) / 2, from = t - slots + 1;
        if (base + s->prefix[t] - s->prefix[from < 0 ? 0 : from] > s->best) hi = t;
        else lo = t + 1;
    }
    return lo;
}

/* Words lo..hi of a child: `x` without the options holding a key of the chosen option, read from its left
 * open set `keep`, else from its key groups' `parts`. */
static void child_words(const uint64_t *x, const uint64_t *keep, const uint64_t **parts, int np, int lo, int hi,
                        uint64_t *child) {
    if (hi < lo) return;
    if (keep != NULL) {
        for (int w = lo; w <= hi; w++) child[w] = x[w] & keep[w];
        return;
    }
    memcpy(child + lo, x + lo, sizeof(uint64_t) * (size_t)(hi - lo + 1));
    for (int i = 0; i < np; i++) /* a part at a time: the loop over words vectorises */
        for (int w = lo; w <= hi; w++) child[w] &= parts[i][w];
}

/* The highest set bit of words lo..hiw of `x` (-1: none there). */
static int top_bit_above(const uint64_t *x, int hiw, int lo) {
    for (int w = hiw; w >= lo; w--)
        if (x[w]) return w * 64 + 63 - __builtin_clzll(x[w]);
    return -1;
}

static void record(Search *s, int64_t value, int extra1, int extra2) {
    s->best = value;
    s->nbest = 0;
    for (int i = 0; i < s->nchosen; i++) s->best_set[s->nbest++] = s->chosen[i];
    if (extra1 >= 0) s->best_set[s->nbest++] = extra1;
    if (extra2 >= 0) s->best_set[s->nbest++] = extra2;
}

/* `_ClassTops.rest`: the most `slots` more options of `open` may add, each class's trains left taking its
 * best open options. */
static int64_t class_rest(Search *s, const uint64_t *open, int hiw, int slots) {
    int nt = 0;
    for (int c = 0; c < s->ncls; c++) {
        int left = s->left[c];
        if (left <= 0) continue;
        const uint64_t *f = s->fitting + (size_t)c * s->nw;
        int take = left < slots ? left : slots;
        for (int w = hiw; w >= 0 && take > 0; w--) {
            uint64_t cur = open[w] & f[w];
            while (cur && take > 0) {
                int k = 63 - __builtin_clzll(cur);
                cur ^= 1ULL << k;
                s->tops[nt++] = s->vals[w * 64 + k];
                take--;
            }
        }
    }
    if (nt > slots) { /* the `slots` largest */
        for (int i = 0; i < slots; i++) {
            int m = i;
            for (int j = i + 1; j < nt; j++)
                if (s->tops[j] > s->tops[m]) m = j;
            int64_t t = s->tops[i];
            s->tops[i] = s->tops[m];
            s->tops[m] = t;
        }
        nt = slots;
    }
    int64_t sum = 0;
    for (int i = 0; i < nt; i++) sum += s->tops[i];
    return sum;
}

static int out_of_time(Search *s) {
    return (s->deadline >= 0 && now() > s->deadline) || *s->cancelled ||
           (s->node_limit >= 0 && s->nodes > s->node_limit);
}

static void search(Search *s, int depth, const uint64_t *open, int hiw, int64_t value, int slots,
                   const uint64_t *full, int all_slots) {
    int nw = s->nw;
    if (value > s->best) record(s, value, -1, -1);
    uint64_t *x = s->buf + (size_t)depth * 3 * nw, *child = x + nw, *tmp = x + 2 * nw;
    memcpy(x, open, sizeof(uint64_t) * (size_t)(hiw + 1));
    int xw = hiw;
    int leaf_fit = -1, nleaf = 0;
    int32_t *leaf_sets = s->used + s->nsets; /* with two slots left: the class sets choosing an option fills */
    for (;;) {
        while (xw >= 0 && !x[xw]) xw--;
        if (xw < 0) break;
        int j = xw * 64 + 63 - __builtin_clzll(x[xw]);
        x[xw] ^= 1ULL << (j & 63);
        int64_t vj = s->vals[j];
        if (slots == 1) {
            if (value + vj > s->best) record(s, value + vj, j, -1);
            break;
        }
        int tx = top_bit(x, xw);
        int64_t rest;
        if (slots == 2) {
            rest = tx >= 0 ? s->vals[tx] : 0;
        } else {
            int t = tx + 1, lo = t - slots + 1;
            rest = s->prefix[t] - s->prefix[lo < 0 ? 0 : lo];
        }
        if (value + vj + rest <= s->best) break;
        s->nodes++;
        if (s->nodes % s->check_every == 0 && out_of_time(s)) {
            s->stopped = 1;
            return;
        }
        const uint64_t *km = s->kmask + (size_t)j * s->kw;
        int fj = s->fitid[j];
        if (slots == 2) {
            if (fj != leaf_fit) {
                leaf_fit = fj;
                nleaf = 0;
                for (int i = 0; i < s->wlen[fj]; i++) {
                    int t = s->widx[s->wstart[fj] + i];
                    if (s->used[t] + 1 == s->room[t]) leaf_sets[nleaf++] = t;
                }
            }
            if (value + vj > s->best) record(s, value + vj, j, -1);
            /* the best option left open beside j, read from the top word down: below the root through the set
             * j leaves open (cached: j comes again under other options), at the root through its key groups'
             * parts (j comes once there: only the words down to the first holding one are read) */
            const uint64_t **parts = s->group_parts;
            int np = 1;
            if (depth > 0) parts[0] = left_open(s, km, tmp, full);
            else np = parts_of(s, km, parts);
            int low = first_above(s, s->best - value - vj) / 64; /* an option below this word cannot improve */
            for (int w = tx >= 0 ? tx / 64 : -1; w >= low; w--) {
                uint64_t cur = x[w];
                for (int i = 0; i < np && cur; i++) cur &= parts[i][w];
                for (int i = 0; i < nleaf && cur; i++) cur &= s->closes[(size_t)leaf_sets[i] * nw + w];
                if (cur) {
                    int k = w * 64 + 63 - __builtin_clzll(cur);
                    if (value + vj + s->vals[k] > s->best) record(s, value + vj + s->vals[k], j, k);
                    break;
                }
            }
            continue;
        }
        /* at the root each option comes once, so its set is not cached: its key groups' parts make the child */
        const uint64_t *keep = slots == all_slots ? NULL : left_open(s, km, tmp, full);
        const uint64_t **parts = s->group_parts;
        int np = keep == NULL ? parts_of(s, km, parts) : 0;
        int cw = j / 64;
        /* the bound below needs only the child's top option, and fails unless it is numbered `least_top` or
         * more: the words holding those are made first, the rest only when the bound holds */
        int least = least_top(s, value + vj, slots), split = least > 0 ? (least - 1) / 64 : 0;
        if (split > cw) continue;
        child_words(x, keep, parts, np, split, cw, child);
        int tc = top_bit_above(child, cw, split) + 1, lo = tc - slots + 1;
        if (tc < least || value + vj + s->prefix[tc] - s->prefix[lo < 0 ? 0 : lo] <= s->best) continue;
        child_words(x, keep, parts, np, 0, split - 1, child);
        for (int i = 0; i < s->wlen[fj]; i++) {
            int t = s->widx[s->wstart[fj] + i];
            s->used[t]++;
            if (s->used[t] == s->room[t]) {
                const uint64_t *cl = s->closes + (size_t)t * nw;
                for (int w = 0; w <= cw; w++) child[w] &= cl[w];
            }
        }
        int alone = s->alone[fj];
        if (alone >= 0) s->left[alone]--;
        if (!(s->active && value + vj + class_rest(s, child, cw, slots - 1) <= s->best)) {
            s->chosen[s->nchosen++] = j;
            search(s, depth + 1, child, cw, value + vj, slots - 1, full, all_slots);
            s->nchosen--;
        }
        if (alone >= 0) s->left[alone]++;
        for (int i = 0; i < s->wlen[fj]; i++) s->used[s->widx[s->wstart[fj] + i]]--;
        if (s->stopped) return;
    }
}

/* The version of rm_best_packing's arguments: the loader uses a build only when it says this version. */
int32_t rm_setpack_abi(void) { return 1; }

/* The search of `best_packing` over prepared tables (see setpack_native.py for each argument). Writes the
 * chosen options (numbers in value order) to `out` and to `result`: the best value, the nodes, whether it
 * stopped early, how many options were chosen (-1: nothing beat `lower`). Returns 0, or -1 when memory ran
 * out (nothing is written then). */
int rm_best_packing(int32_t n, int32_t nw, int32_t kw, int32_t nkeys, const int64_t *vals, const int64_t *prefix,
                    const uint64_t *kmask, const uint64_t *users, const int32_t *fitid, const int32_t *wstart,
                    const int32_t *wlen, const int32_t *widx, const int32_t *alone, int32_t nsets,
                    const int32_t *room, const uint64_t *closes, int32_t ncls, int32_t active,
                    const uint64_t *fitting, const int32_t *counts, int64_t lower, double deadline,
                    int64_t node_limit, int64_t check_every, const volatile int32_t *cancelled, int64_t cache_words,
                    int32_t *out, int64_t *result) {
    Search s;
    memset(&s, 0, sizeof s);
    int all_slots = 0;
    for (int c = 0; c < ncls; c++) all_slots += counts[c];
    s.n = n; s.nw = nw; s.kw = kw; s.nkeys = nkeys; s.ngroups = (nkeys + GROUP_KEYS - 1) / GROUP_KEYS;
    s.vals = vals; s.prefix = prefix; s.kmask = kmask; s.users = users; s.fitid = fitid;
    s.wstart = wstart; s.wlen = wlen; s.widx = widx; s.alone = alone; s.room = room; s.closes = closes;
    s.fitting = fitting; s.nsets = nsets; s.ncls = ncls; s.active = active;
    s.best = lower; s.nbest = -1; s.deadline = deadline; s.node_limit = node_limit;
    s.check_every = check_every > 0 ? check_every : 1; s.cancelled = cancelled;
    s.cache_left = cache_words;
    s.hcap = 64;
    while (s.hcap < 2 * (size_t)n + 64) s.hcap <<= 1;
    s.used = calloc((size_t)nsets * 2 + 2, sizeof(int32_t));
    s.left = calloc((size_t)ncls + 1, sizeof(int32_t));
    s.chosen = calloc((size_t)all_slots + 1, sizeof(int32_t));
    s.best_set = calloc((size_t)all_slots + 1, sizeof(int32_t));
    s.tops = calloc((size_t)ncls * (size_t)all_slots + 1, sizeof(int64_t));
    s.buf = calloc((size_t)(all_slots + 1) * 3 * (size_t)nw + 1, sizeof(uint64_t));
    s.scratch = calloc((size_t)s.ngroups * (size_t)nw + 1, sizeof(uint64_t));
    s.group_parts = calloc((size_t)s.ngroups + 1, sizeof(uint64_t *));
    s.pcap = 256;
    s.pkeys = calloc(s.pcap, sizeof(uint32_t));
    s.pvals = calloc(s.pcap, sizeof(uint64_t *));
    s.chunks = calloc(MAX_CHUNKS, sizeof(uint64_t *));
    s.hkeys = calloc(s.hcap * (size_t)(kw > 0 ? kw : 1), sizeof(uint64_t));
    s.hvals = calloc(s.hcap, sizeof(uint64_t *));
    s.hwords = calloc(s.hcap, sizeof(int32_t));
    uint64_t *full = calloc((size_t)nw + 1, sizeof(uint64_t));
    int ok = s.used && s.left && s.chosen && s.best_set && s.tops && s.buf && s.scratch && s.pkeys && s.pvals &&
             s.chunks && s.hkeys && s.hvals && s.hwords && s.group_parts && full;
    if (ok && n > 0) {
        for (int c = 0; c < ncls; c++) s.left[c] = counts[c];
        for (int w = 0; w < nw; w++) full[w] = ~0ULL;
        key_words(&s);
        if (n % 64) full[nw - 1] = (1ULL << (n % 64)) - 1;
        search(&s, 0, full, nw - 1, 0, all_slots, full, all_slots);
    }
    if (ok) {
        result[0] = s.best;
        result[1] = s.nodes;
        result[2] = s.stopped;
        result[3] = s.nbest;
        for (int i = 0; i < s.nbest; i++) out[i] = s.best_set[i];
    }
    if (s.chunks) for (size_t i = 0; i < s.nchunks; i++) free(s.chunks[i]);
    free(s.chunks); free(s.pkeys); free(s.pvals);
    free(s.group_parts); free(s.hvals); free(s.hwords); free(s.hkeys); free(s.scratch); free(s.buf); free(s.tops);
    free(s.best_set); free(s.chosen); free(s.left); free(s.used); free(full);
    return ok ? 0 : -1;
}
