/* Optional C core of the track-game engine (game/rules/track/engine.py is the reference).
 *
 * legal(state)               -> PlayList: every legal play of the seat to move, in the order
 *                               the Python engine gives them (a lazy sequence of engine.Play).
 * apply(state, seat, play)   -> new TrackState (the events=False path of engine.apply_play).
 * tees_continue(state, after)   engine._tees_continue(state, after, None), in place.
 * Config(cfg)                -> the C copy of an engine.Cfg (stored in cfg.fast).
 * setup(Play, TrackState, RulesError, Part, Bump)  called once by engine.py (Part and Bump:
 *                               engine's NamedTuples, which the parts and bumps of a Play are).
 *
 * Pure: no I/O, clocks or randomness; the shuffle is SplitMix64 exactly as cards.Rng.
 * Every size and value read from Python is checked: bad input raises, never crashes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define MAXC 8
#define NPEG 5
#define MAXPEG (MAXC * NPEG)
#define MAXR (18 * MAXC)
#define START (-1)
#define HOME0 200
#define MAXB 16
#define MAXRANKS 512
#define MAXCARD 55

enum { TEES = 0, CLASSIC = 1, TEAM = 2 };

/* ------------------------------------------------------------------------------------------ */
/* registered Python types and slot offsets                                                    */

static PyTypeObject *PlayType = NULL;
static PyTypeObject *PartType = NULL; /* engine.Part: a tuple subclass (a NamedTuple) */
static PyTypeObject *BumpType = NULL; /* engine.Bump */
static PyTypeObject *StateType = NULL;
static PyObject *RulesErrorObj = NULL;
static PyObject *KindStr[128];

enum { P_TOK, P_BUMPS, P_LAST, P_PARTS, P_RANK, P_NSLOTS };
static const char *PlaySlots[P_NSLOTS] = {"_tok", "bumps", "last", "parts", "rank"};
static Py_ssize_t PlayOff[P_NSLOTS];

enum { S_BOARD, S_LEGAL, S_CFG, S_DEALER, S_DISCARDS, S_HANDS, S_IDLE, S_NPLAYS, S_PEGS, S_PILE,
       S_RNG, S_ROUND, S_SEED, S_TURN, S_WINNER, S_NSLOTS };
static const char *StateSlots[S_NSLOTS] = {"_board", "_legal", "cfg", "dealer", "discards",
                                           "hands", "idle", "nplays", "pegs", "pile", "rng",
                                           "round", "seed", "turn", "winner"};
static Py_ssize_t StateOff[S_NSLOTS];

/* A tuple holding no object the collector tracks (ints, strings, untracked tuples) can never
   be part of a cycle: CPython untracks such tuples itself at its next collection
   (_PyTuple_MaybeUntrack); doing it at once keeps the collector's walks short. `untracked`
   is for tuples this module filled with such items; `untrack_checked` looks first. */
static PyObject *untracked(PyObject *t)
{
    if (t != NULL && PyTuple_CheckExact(t) && PyObject_GC_IsTracked(t))
        PyObject_GC_UnTrack(t);
    return t;
}

static PyObject *untrack_checked(PyObject *t)
{
    if (t == NULL || !PyTuple_CheckExact(t) || !PyObject_GC_IsTracked(t))
        return t;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++)
        if (PyObject_GC_IsTracked(PyTuple_GET_ITEM(t, i)))
            return t;
    PyObject_GC_UnTrack(t);
    return t;
}

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static void slot_set(PyObject *obj, Py_ssize_t off, PyObject *val) /* steals val */
{
    PyObject *old = SLOT(obj, off);
    SLOT(obj, off) = val;
    Py_XDECREF(old);
}

static PyObject *state_get(PyObject *st, int i) /* borrowed */
{
    PyObject *v = SLOT(st, StateOff[i]);
    if (v == NULL)
        PyErr_Format(PyExc_AttributeError, "track state has no %s", StateSlots[i]);
    return v;
}

static int check_state(PyObject *st)
{
    if (StateType == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fast.setup() was not called");
        return -1;
    }
    if (Py_TYPE(st) != StateType) {
        PyErr_Format(PyExc_TypeError, "expected a TrackState, not %.100s", Py_TYPE(st)->tp_name);
        return -1;
    }
    return 0;
}

static int get_long(PyObject *o, long lo, long hi, const char *what, long *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Config                                                                                     */

typedef struct {
    PyObject_HEAD
    int rules, n, R, teams_mode, nteams, jokers, seven;
    int team_of[MAXC], inspot[MAXC], comeout[MAXC];
    int npart[MAXC], partners[MAXC][MAXC];
    int nteam[MAXC], teams[MAXC][MAXC];
} FCfg;

static PyTypeObject FCfgType;

static int int_attr(PyObject *o, const char *name, long lo, long hi, int *out)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (v == NULL)
        return -1;
    long x;
    int r = get_long(v, lo, hi, name, &x);
    Py_DECREF(v);
    if (r == 0)
        *out = (int)x;
    return r;
}

static int int_seq(PyObject *seq, int *out, int maxn, long lo, long hi, const char *what)
{
    PyObject *f = PySequence_Fast(seq, what);
    if (f == NULL)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k > maxn) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s too long", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long x;
        if (get_long(PySequence_Fast_GET_ITEM(f, i), lo, hi, what, &x) < 0) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)x;
    }
    Py_DECREF(f);
    return (int)k;
}

static PyObject *FCfg_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *cfg;
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Config(cfg) takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O:Config", &cfg))
        return NULL;
    FCfg *c = (FCfg *)type->tp_alloc(type, 0);
    if (c == NULL)
        return NULL;
    PyObject *v = NULL, *mode = NULL;
    int b;
    if (int_attr(cfg, "rules", 0, 2, &c->rules) < 0 || int_attr(cfg, "n", 1, MAXC, &c->n) < 0 ||
        int_attr(cfg, "R", 1, MAXR, &c->R) < 0 || int_attr(cfg, "nteams", 1, MAXC, &c->nteams) < 0)
        goto fail;
    if (c->R != 18 * (c->n < 4 ? 4 : c->n)) {
        PyErr_SetString(PyExc_ValueError, "ring size does not match the seats");
        goto fail;
    }
    mode = PyObject_GetAttrString(cfg, "mode");
    if (mode == NULL)
        goto fail;
    {
        PyObject *t = PyUnicode_FromString("teams");
        if (t == NULL)
            goto fail;
        b = PyObject_RichCompareBool(mode, t, Py_EQ);
        Py_DECREF(t);
    }
    if (b < 0)
        goto fail;
    c->teams_mode = b;
    v = PyObject_GetAttrString(cfg, "jokers");
    if (v == NULL || (b = PyObject_IsTrue(v)) < 0)
        goto fail;
    c->jokers = b;
    Py_CLEAR(v);
    v = PyObject_GetAttrString(cfg, "seven");
    if (v == NULL || (b = PyObject_IsTrue(v)) < 0)
        goto fail;
    c->seven = b;
    Py_CLEAR(v);
    const char *names[3] = {"team_of", "inspot", "comeout"};
    int *arrs[3] = {c->team_of, c->inspot, c->comeout};
    for (int i = 0; i < 3; i++) {
        v = PyObject_GetAttrString(cfg, names[i]);
        if (v == NULL)
            goto fail;
        int k = int_seq(v, arrs[i], MAXC, 0, i == 0 ? c->nteams - 1 : c->R - 1, names[i]);
        Py_CLEAR(v);
        if (k < 0)
            goto fail;
        if (k != c->n) {
            PyErr_Format(PyExc_ValueError, "%s has the wrong length", names[i]);
            goto fail;
        }
    }
    for (int which = 0; which < 2; which++) {
        v = PyObject_GetAttrString(cfg, which == 0 ? "partners" : "teams");
        if (v == NULL)
            goto fail;
        PyObject *f = PySequence_Fast(v, "partners/teams");
        Py_CLEAR(v);
        if (f == NULL)
            goto fail;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
        if (k != (which == 0 ? c->n : c->nteams)) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "partners/teams has the wrong length");
            goto fail;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            int m = int_seq(PySequence_Fast_GET_ITEM(f, i),
                            which == 0 ? c->partners[i] : c->teams[i], MAXC, 0, c->n - 1,
                            "partners/teams");
            if (m < 0) {
                Py_DECREF(f);
                goto fail;
            }
            if (which == 0)
                c->npart[i] = m;
            else
                c->nteam[i] = m;
        }
        Py_DECREF(f);
    }
    Py_XDECREF(mode);
    return (PyObject *)c;
fail:
    Py_XDECREF(v);
    Py_XDECREF(mode);
    Py_DECREF(c);
    return NULL;
}

static PyTypeObject FCfgType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "game.rules.track._fast.Config",
    .tp_basicsize = sizeof(FCfg),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = FCfg_new,
    .tp_doc = "C copy of an engine.Cfg",
};

static PyObject *LastCfg = NULL; /* strong ref: its address cannot be reused meanwhile */
static FCfg *LastFC = NULL;
static PyObject *FastName = NULL;

static FCfg *state_cfg(PyObject *st)
{
    PyObject *cfg = state_get(st, S_CFG);
    if (cfg == NULL)
        return NULL;
    if (cfg == LastCfg)
        return LastFC;
    PyObject *fc = PyObject_GetAttr(cfg, FastName);
    if (fc == NULL)
        return NULL;
    if (Py_TYPE(fc) != &FCfgType) {
        Py_DECREF(fc);
        PyErr_SetString(PyExc_TypeError, "cfg.fast is not a _fast.Config");
        return NULL;
    }
    Py_DECREF(fc); /* kept alive by cfg, which LastCfg keeps alive */
    Py_INCREF(cfg);
    Py_XSETREF(LastCfg, cfg);
    LastFC = (FCfg *)fc;
    return LastFC;
}

/* ------------------------------------------------------------------------------------------ */
/* Board                                                                                       */

typedef struct {
    short pegs[MAXPEG];
    signed char occ[MAXR];
    unsigned char hm[MAXC];
} Board;

static void board_build(Board *b, const FCfg *cf, const short *pegs)
{
    int np = cf->n * NPEG;
    memcpy(b->pegs, pegs, sizeof(short) * np);
    memset(b->occ, -1, sizeof(b->occ));
    memset(b->hm, 0, sizeof(b->hm));
    for (int pid = 0; pid < np; pid++) {
        int loc = pegs[pid];
        if (loc >= HOME0)
            b->hm[pid / NPEG] |= (unsigned char)(1 << (loc - HOME0 - 1));
        else if (loc >= 0)
            b->occ[loc] = (signed char)pid;
    }
}

/* x mod R for -R <= x < 2R (every caller: a hole plus or minus at most 13, or a hole
   difference) */
static inline int wrap(int x, int R)
{
    return x >= R ? x - R : (x < 0 ? x + R : x);
}

static inline int col_at(const Board *b, int x)
{
    int q = b->occ[x];
    return q < 0 ? -1 : q / NPEG;
}

/* any peg of colour c on holes loc+1..loc+n (dir +1) or loc-1..loc-n (dir -1) */
static int path_has_col(const Board *b, int R, int loc, int n, int dir, int c)
{
    int x = loc;
    for (int i = 0; i < n; i++) {
        x += dir;
        if (x >= R)
            x -= R;
        else if (x < 0)
            x += R;
        int q = b->occ[x];
        if (q >= 0 && q / NPEG == c)
            return 1;
    }
    return 0;
}

/* any peg of team tc on those holes */
static int path_has_team(const FCfg *cf, const Board *b, int loc, int n, int dir, int tc)
{
    int R = cf->R, x = loc;
    for (int i = 0; i < n; i++) {
        x += dir;
        if (x >= R)
            x -= R;
        else if (x < 0)
            x += R;
        int q = b->occ[x];
        if (q >= 0 && cf->team_of[q / NPEG] == tc)
            return 1;
    }
    return 0;
}

typedef struct {
    short q, qf, qt;
} CBump;

/* engine._land: bumps of pid landing on ring hole x (classic/team): count, or -1 if illegal */
/* ring holes a generator read, as a bit set (rd may be NULL: not recorded) */
#define RDW 3 /* 3 * 64 >= MAXR */
static inline void mark(uint64_t *rd, int x)
{
    if (rd)
        rd[x >> 6] |= (uint64_t)1 << (x & 63);
}

static int land_rd(const FCfg *cf, const Board *b, int pid, int x, CBump *out, uint64_t *rd);

static int land(const FCfg *cf, const Board *b, int pid, int x, CBump *out)
{
    return land_rd(cf, b, pid, x, out, NULL);
}

static int land_rd(const FCfg *cf, const Board *b, int pid, int x, CBump *out, uint64_t *rd)
{
    mark(rd, x);
    int q = b->occ[x];
    if (q < 0 || q == pid)
        return 0;
    int c = pid / NPEG, cq = q / NPEG;
    if (cq == c)
        return -1;
    if (cf->team_of[cq] != cf->team_of[c]) {
        out[0].q = (short)q;
        out[0].qf = (short)x;
        out[0].qt = START;
        return 1;
    }
    int t = cf->inspot[cq];
    int nb = 0;
    out[nb].q = (short)q;
    out[nb].qf = (short)x;
    out[nb].qt = (short)t;
    nb++;
    int visited[MAXB + 2];
    int nv = 0;
    visited[nv++] = x;
    for (;;) {
        for (int i = 0; i < nv; i++)
            if (visited[i] == t)
                return -1;
        mark(rd, t);
        int r = b->occ[t];
        if (r < 0 || r == pid)
            return nb;
        int cr = r / NPEG;
        if (cr == cq)
            return -1;
        if (nb >= MAXB - 1 || nv >= MAXB)
            return -1; /* cannot happen: each step visits a new in-spot */
        if (cf->team_of[cr] != cf->team_of[cq]) {
            out[nb].q = (short)r;
            out[nb].qf = (short)t;
            out[nb].qt = START;
            return nb + 1;
        }
        visited[nv++] = t;
        int nt = cf->inspot[cr];
        out[nb].q = (short)r;
        out[nb].qf = (short)t;
        out[nb].qt = (short)nt;
        nb++;
        cq = cr;
        t = nt;
    }
}

/* engine._do on the board: move pid to `to` with its bumps */
static void board_do(Board *b, int pid, int to, const CBump *bumps, int nb)
{
    int frm = b->pegs[pid];
    for (int i = 0; i <= nb; i++) {
        int q = i < nb ? bumps[i].q : pid;
        int qf = i < nb ? bumps[i].qf : frm;
        int c = q / NPEG;
        if (qf >= HOME0)
            b->hm[c] &= (unsigned char)~(1 << (qf - HOME0 - 1));
        else if (qf >= 0 && b->occ[qf] == q)
            b->occ[qf] = -1;
    }
    for (int i = 0; i <= nb; i++) {
        int q = i < nb ? bumps[i].q : pid;
        int qt = i < nb ? bumps[i].qt : to;
        int c = q / NPEG;
        b->pegs[q] = (short)qt;
        if (qt >= HOME0)
            b->hm[c] |= (unsigned char)(1 << (qt - HOME0 - 1));
        else if (qt >= 0)
            b->occ[qt] = (signed char)q;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Compact plays                                                                               */

typedef struct {
    char kind;
    signed char pid;
    short frm, to, n;
} CPart;

typedef struct {
    unsigned char rank, np, last;
    unsigned char nb[2];
    CPart p[2];
    int boff;
} CPlay;

typedef struct {
    CPlay *plays;
    Py_ssize_t n, cap;
    CBump *bumps;
    Py_ssize_t nb, bcap;
} Out;

static Out OutA, OutB;

static int out_grow(Out *o, Py_ssize_t nb)
{
    if (o->n >= o->cap) {
        Py_ssize_t cap = o->cap ? o->cap * 2 : 1024;
        CPlay *p = PyMem_Realloc(o->plays, sizeof(CPlay) * cap);
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        o->plays = p;
        o->cap = cap;
    }
    if (o->nb + nb > o->bcap) {
        Py_ssize_t cap = o->bcap ? o->bcap * 2 : 1024;
        while (cap < o->nb + nb)
            cap *= 2;
        CBump *p = PyMem_Realloc(o->bumps, sizeof(CBump) * cap);
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        o->bumps = p;
        o->bcap = cap;
    }
    return 0;
}

static inline int emit(Out *o, int rank, int np, const CPart *p, const CBump *b1, int nb1,
                       const CBump *b2, int nb2, int last)
{
    if ((o->n >= o->cap || o->nb + nb1 + nb2 > o->bcap) && out_grow(o, nb1 + nb2) < 0)
        return -1;
    CPlay *pl = &o->plays[o->n++];
    pl->rank = (unsigned char)rank;
    pl->np = (unsigned char)np;
    pl->last = (unsigned char)last;
    pl->nb[0] = (unsigned char)nb1;
    pl->nb[1] = (unsigned char)nb2;
    pl->p[0] = p[0];
    if (np > 1)
        pl->p[1] = p[1];
    pl->boff = (int)o->nb;
    CBump *dst = o->bumps + o->nb;
    for (int i = 0; i < nb1; i++)
        dst[i] = b1[i];
    dst += nb1;
    for (int i = 0; i < nb2; i++)
        dst[i] = b2[i];
    o->nb += nb1 + nb2;
    return 0;
}

static int emit1(Out *o, int rank, char kind, int pid, int frm, int to, int n, const CBump *b,
                 int nb, int last)
{
    CPart p;
    p.kind = kind;
    p.pid = (signed char)pid;
    p.frm = (short)frm;
    p.to = (short)to;
    p.n = (short)n;
    return emit(o, rank, 1, &p, b, nb, NULL, 0, last);
}

/* ------------------------------------------------------------------------------------------ */
/* Generation                                                                                  */

typedef struct {
    short loc;
    signed char pid;
} Mover;

static int done(const short *pegs, int c)
{
    for (int i = c * NPEG; i < c * NPEG + NPEG; i++)
        if (pegs[i] < HOME0)
            return 0;
    return 1;
}

/* engine.controlled */
static int controlled(const FCfg *cf, int seat, const short *pegs, int *cols)
{
    if (cf->rules == TEAM) {
        int t = cf->team_of[seat];
        memcpy(cols, cf->teams[t], sizeof(int) * cf->nteam[t]);
        return cf->nteam[t];
    }
    if (!done(pegs, seat)) {
        cols[0] = seat;
        return 1;
    }
    for (int i = 0; i < cf->npart[seat]; i++) {
        int p = cf->partners[seat][i];
        if (!done(pegs, p)) {
            cols[0] = p;
            return 1;
        }
    }
    return 0;
}

static void sort_movers(Mover *mv, int n)
{
    for (int i = 1; i < n; i++) {
        Mover m = mv[i];
        int j = i - 1;
        while (j >= 0 && (mv[j].loc > m.loc || (mv[j].loc == m.loc && mv[j].pid > m.pid))) {
            mv[j + 1] = mv[j];
            j--;
        }
        mv[j + 1] = m;
    }
}

/* engine._movers */
static int movers_of(const short *pegs, const int *cols, int ncols, Mover *mv, int *starts,
                     int *nstarts)
{
    int nm = 0, ns = 0;
    for (int i = 0; i < ncols; i++) {
        int b = cols[i] * NPEG, first = -1;
        for (int pid = b; pid < b + NPEG; pid++) {
            int loc = pegs[pid];
            if (loc == START) {
                if (first < 0)
                    first = pid;
            }
            else if (loc < HOME0 + 5) {
                mv[nm].loc = (short)loc;
                mv[nm].pid = (signed char)pid;
                nm++;
            }
        }
        if (first >= 0 && starts)
            starts[ns++] = first;
    }
    sort_movers(mv, nm);
    if (nstarts)
        *nstarts = ns;
    return nm;
}

typedef struct {
    short to;
    int nb;
    CBump b[MAXB];
} Dest;

static void mark_path(uint64_t *rd, int loc, int n, int dir, int R)
{
    int x = loc;
    for (int i = 0; i < n; i++) {
        x += dir;
        if (x >= R)
            x -= R;
        else if (x < 0)
            x += R;
        mark(rd, x);
    }
}

/* engine._dests. With rd/hrd (not NULL): also the ring holes read (rd) and the colours
   whose home was read (hrd bits): the result is the same on any board that differs from
   this one elsewhere (and where the peg itself has not moved). */
static int dests_rd(const FCfg *cf, const Board *b, char kind, int pid, int loc, int n,
                    Dest *out, uint64_t *rd, unsigned *hrd)
{
    int R = cf->R, c = pid / NPEG, k = 0;
    if (kind == 'f') {
        if (hrd)
            *hrd |= 1u << c;
        if (loc >= HOME0) {
            int h = loc - HOME0;
            if (h + n <= 5 && !((b->hm[c] >> h) & ((1 << n) - 1))) {
                out[0].to = (short)(loc + n);
                out[0].nb = 0;
                return 1;
            }
            return 0;
        }
        if (loc < 0)
            return 0;
        if (rd)
            mark_path(rd, loc, n, 1, R);
        if (!path_has_col(b, R, loc, n, 1, c)) {
            int x = wrap(loc + n, R);
            int nb = land_rd(cf, b, pid, x, out[k].b, rd);
            if (nb >= 0) {
                out[k].to = (short)x;
                out[k].nb = nb;
                k++;
            }
        }
        int d = wrap(cf->inspot[c] - loc, R);
        if (d < n && n <= d + 5 && !path_has_col(b, R, loc, d, 1, c) &&
            !(b->hm[c] & ((1 << (n - d)) - 1))) {
            out[k].to = (short)(HOME0 + n - d);
            out[k].nb = 0;
            k++;
        }
        return k;
    }
    if (loc >= HOME0 || loc < 0)
        return 0;
    if (rd)
        mark_path(rd, loc, n, -1, R);
    if (path_has_col(b, R, loc, n, -1, c))
        return 0;
    int x = wrap(loc - n, R);
    int nb = land_rd(cf, b, pid, x, out[0].b, rd);
    if (nb < 0)
        return 0;
    out[0].to = (short)x;
    out[0].nb = nb;
    return 1;
}

static int dests(const FCfg *cf, const Board *b, char kind, int pid, int loc, int n, Dest *out)
{
    return dests_rd(cf, b, kind, pid, loc, n, out, NULL, NULL);
}

typedef struct {
    const FCfg *cf;
    Board b;
    int seat;
    int cols[MAXC], ncols;
    Mover mv[MAXPEG];
    int nmov;
    int starts[MAXC], nstarts;
    int ranks[MAXRANKS], nranks;
} Gen;

/* One part of a split on the turn's board: its destinations and what they depend on. */
typedef struct {
    int n;
    Dest d[2];
    uint64_t rd[RDW];
    unsigned hrd;
} Pre;

static Pre PreT[2][MAXPEG][10]; /* [kind f/b][peg][count] */
/* per kind and count: the movers (in order) with some part on the turn's board, and what
   the movers without one read (a first part touching none of it leaves them without) */
static Mover Live[2][10][MAXPEG];
static int NLive[2][10];
static uint64_t IdleRd[2][10][RDW];
static unsigned IdleH[2][10];

/* The splits of `total` (engine._splits / _sevens_one_colour): every first part on the
   board, then every second part on the board the first one leaves, in the engine's order.
   A second part is taken from PreT (found on the turn's board) when its peg has not moved
   and the first part changed none of the ring holes it read nor the home it read; else it
   is generated on the board after the first part. */
static int splits(Gen *g, Out *out, int total, const char (*kinds)[2], int nk, int recolour)
{
    const FCfg *cf = g->cf;
    Dest d2[2];
    Mover mv2[MAXPEG];
    int cols2[MAXC];
    unsigned char have[MAXPEG];
    int used[2] = {0, 0};
    memset(have, 0, sizeof(have));
    for (int kk = 0; kk < nk; kk++) {
        used[kinds[kk][0] == 'b'] = 1;
        used[kinds[kk][1] == 'b'] = 1;
    }
    for (int i = 0; i < g->nmov; i++) {
        int pid = g->mv[i].pid, loc = g->mv[i].loc;
        have[pid] = 1;
        for (int ki = 0; ki < 2; ki++) {
            if (!used[ki])
                continue;
            for (int a = 1; a < total; a++) {
                Pre *p = &PreT[ki][pid][a];
                memset(p->rd, 0, sizeof(p->rd));
                p->hrd = 0;
                p->n = dests_rd(cf, &g->b, ki ? 'b' : 'f', pid, loc, a, p->d, p->rd, &p->hrd);
            }
        }
    }
    for (int ki = 0; ki < 2; ki++) {
        if (!used[ki])
            continue;
        for (int a = 1; a < total; a++) {
            int nl = 0;
            memset(IdleRd[ki][a], 0, sizeof(IdleRd[ki][a]));
            IdleH[ki][a] = 0;
            for (int i = 0; i < g->nmov; i++) {
                const Pre *p = &PreT[ki][g->mv[i].pid][a];
                if (p->n)
                    Live[ki][a][nl++] = g->mv[i];
                else {
                    for (int w = 0; w < RDW; w++)
                        IdleRd[ki][a][w] |= p->rd[w];
                    IdleH[ki][a] |= p->hrd;
                }
            }
            NLive[ki][a] = nl;
        }
    }
    for (int kk = 0; kk < nk; kk++) {
        char k1 = kinds[kk][0], k2 = kinds[kk][1];
        int i1 = k1 == 'b', i2 = k2 == 'b';
        for (int i = 0; i < g->nmov; i++) {
            int loc1 = g->mv[i].loc, pid1 = g->mv[i].pid, c1 = pid1 / NPEG;
            for (int a = 1; a < total; a++) {
                const Pre *p1 = &PreT[i1][pid1][a];
                int rest = total - a;
                for (int e = 0; e < p1->n; e++) {
                    const Dest *d1 = &p1->d[e];
                    int to1 = d1->to, nb1 = d1->nb;
                    /* what the first part changes: ring holes T, homes th */
                    uint64_t T[RDW] = {0, 0, 0};
                    unsigned th = 0;
                    if (loc1 >= HOME0)
                        th |= 1u << c1;
                    else if (loc1 >= 0)
                        mark(T, loc1);
                    if (to1 >= HOME0)
                        th |= 1u << c1;
                    else
                        mark(T, to1);
                    for (int j = 0; j < nb1; j++) {
                        mark(T, d1->b[j].qf);
                        if (d1->b[j].qt >= 0)
                            mark(T, d1->b[j].qt);
                    }
                    Board b2;
                    int have_b2 = 0;
                    const Mover *m2 = g->mv;
                    int nm2 = g->nmov;
                    int moved = nb1 || (recolour && to1 >= HOME0);
                    if (!moved && !(IdleH[i2][rest] & th) && !(IdleRd[i2][rest][0] & T[0]) &&
                        !(IdleRd[i2][rest][1] & T[1]) && !(IdleRd[i2][rest][2] & T[2])) {
                        m2 = Live[i2][rest]; /* the others still have no part */
                        nm2 = NLive[i2][rest];
                    }
                    if (moved) {
                        b2 = g->b;
                        board_do(&b2, pid1, to1, d1->b, nb1);
                        have_b2 = 1;
                        nm2 = -1;
                        if (recolour && to1 >= HOME0) {
                            int nc2 = controlled(cf, g->seat, b2.pegs, cols2);
                            if (nc2 != g->ncols || memcmp(cols2, g->cols, sizeof(int) * nc2))
                                nm2 = movers_of(b2.pegs, cols2, nc2, mv2, NULL, NULL);
                        }
                        if (nm2 < 0) {
                            nm2 = 0;
                            for (int j = 0; j < g->nmov; j++) {
                                int pid = g->mv[j].pid;
                                if (pid == pid1 || b2.pegs[pid] == START)
                                    continue;
                                mv2[nm2].pid = (signed char)pid;
                                mv2[nm2].loc = b2.pegs[pid];
                                nm2++;
                            }
                            if (nb1)
                                sort_movers(mv2, nm2);
                        }
                        m2 = mv2;
                    }
                    CPart pp[2];
                    pp[0].kind = k1;
                    pp[0].pid = (signed char)pid1;
                    pp[0].frm = (short)loc1;
                    pp[0].to = (short)to1;
                    pp[0].n = (short)a;
                    pp[1].kind = k2;
                    pp[1].n = (short)rest;
                    for (int j = 0; j < nm2; j++) {
                        int pid2 = m2[j].pid, loc2 = m2[j].loc;
                        if (pid2 == pid1)
                            continue;
                        const Dest *dd;
                        int nd;
                        const Pre *p2 = &PreT[i2][pid2][rest];
                        if (have[pid2] && loc2 == g->b.pegs[pid2] && !(p2->hrd & th) &&
                            !(p2->rd[0] & T[0]) && !(p2->rd[1] & T[1]) && !(p2->rd[2] & T[2])) {
                            dd = p2->d;
                            nd = p2->n;
                        }
                        else {
                            if (!have_b2) {
                                b2 = g->b;
                                board_do(&b2, pid1, to1, d1->b, nb1);
                                have_b2 = 1;
                            }
                            nd = dests(cf, &b2, k2, pid2, loc2, rest, d2);
                            dd = d2;
                        }
                        pp[1].pid = (signed char)pid2;
                        pp[1].frm = (short)loc2;
                        for (int f = 0; f < nd; f++) {
                            pp[1].to = dd[f].to;
                            if (emit(out, total, 2, pp, d1->b, nb1, dd[f].b, dd[f].nb, 0) < 0)
                                return -1;
                        }
                    }
                }
            }
        }
    }
    return 0;
}

static const char KINDS_FF[1][2] = {{'f', 'f'}};
static const char KINDS_9[2][2] = {{'f', 'b'}, {'b', 'f'}};

/* engine._gen_ct; result: normal then jokers, or jokers then discards (in `out`) */
static int gen_ct(Gen *g, Out *A, Out *B, Out **first, Out **second)
{
    const FCfg *cf = g->cf;
    const Board *b = &g->b;
    int R = cf->R, team = cf->rules == TEAM;
    CBump bb[MAXB];
    int split_ok = g->nmov >= 2 ||
                   (g->nmov == 1 && !team && cf->seven && cf->teams_mode);
    for (int ri = 0; ri < g->nranks; ri++) {
        int r = g->ranks[ri];
        if (r == 0) {
            Mover src[MAXPEG + MAXC];
            int ns = 0;
            if (!(team && g->nstarts == 0))
                for (int i = 0; i < g->nstarts; i++) {
                    src[ns].loc = START;
                    src[ns].pid = (signed char)g->starts[i];
                    ns++;
                }
            if (!(team && g->nstarts))
                for (int i = 0; i < g->nmov; i++)
                    src[ns++] = g->mv[i];
            int targets[MAXPEG], nt = 0;
            for (int pid = 0; pid < cf->n * NPEG; pid++) {
                int x = b->pegs[pid];
                if (x >= 0 && x < HOME0) {
                    int j = nt++;
                    while (j > 0 && targets[j - 1] > x) {
                        targets[j] = targets[j - 1];
                        j--;
                    }
                    targets[j] = x;
                }
            }
            for (int i = 0; i < ns; i++) {
                int loc = src[i].loc, pid = src[i].pid;
                if (loc >= HOME0)
                    continue;
                int c = pid / NPEG;
                for (int t = 0; t < nt; t++) {
                    int x = targets[t];
                    if (col_at(b, x) == c)
                        continue;
                    int nb = land(cf, b, pid, x, bb);
                    if (nb >= 0 && emit1(B, 0, 'j', pid, loc, x, 0, bb, nb, 0) < 0)
                        return -1;
                }
            }
            continue;
        }
        if (r == 1 || r >= 11) {
            for (int i = 0; i < g->nstarts; i++) {
                int pid = g->starts[i], c = pid / NPEG, o = cf->comeout[c];
                if (col_at(b, o) == c)
                    continue;
                int nb = land(cf, b, pid, o, bb);
                if (nb >= 0 && emit1(A, r, 'o', pid, START, o, 0, bb, nb, 0) < 0)
                    return -1;
            }
        }
        if (r == 8) {
            for (int i = 0; i < g->nmov; i++) {
                int loc = g->mv[i].loc, pid = g->mv[i].pid;
                if (loc >= HOME0 || path_has_col(b, R, loc, 8, -1, pid / NPEG))
                    continue;
                int x = wrap(loc - 8, R);
                int nb = land(cf, b, pid, x, bb);
                if (nb >= 0 && emit1(A, 8, 'b', pid, loc, x, 8, bb, nb, 0) < 0)
                    return -1;
            }
            continue;
        }
        int n = r == 1 ? 1 : (r >= 11 ? 10 : r);
        for (int i = 0; i < g->nmov; i++) {
            int loc = g->mv[i].loc, pid = g->mv[i].pid, c = pid / NPEG;
            if (loc >= HOME0) {
                int k = loc - HOME0;
                if (k + n <= 5 && !((b->hm[c] >> k) & ((1 << n) - 1)))
                    if (emit1(A, r, 'f', pid, loc, loc + n, n, NULL, 0, 0) < 0)
                        return -1;
                continue;
            }
            if (!path_has_col(b, R, loc, n, 1, c)) {
                int x = wrap(loc + n, R);
                int nb = land(cf, b, pid, x, bb);
                if (nb >= 0 && emit1(A, r, 'f', pid, loc, x, n, bb, nb, 0) < 0)
                    return -1;
            }
            int d = wrap(cf->inspot[c] - loc, R);
            if (d < n && n <= d + 5 && !path_has_col(b, R, loc, d, 1, c) &&
                !(b->hm[c] & ((1 << (n - d)) - 1)))
                if (emit1(A, r, 'f', pid, loc, HOME0 + n - d, n, NULL, 0, 0) < 0)
                    return -1;
        }
        if (r == 7 && split_ok) {
            int recolour = !team && cf->seven && cf->teams_mode;
            if (splits(g, A, 7, KINDS_FF, 1, recolour) < 0)
                return -1;
        }
        else if (r == 9 && team && split_ok) {
            if (splits(g, A, 9, KINDS_9, 2, 0) < 0)
                return -1;
        }
    }
    if (A->n) {
        *first = A;
        *second = B;
        return 0;
    }
    for (int ri = 0; ri < g->nranks; ri++)
        if (emit1(B, g->ranks[ri], 'x', -1, 0, 0, 0, NULL, 0, 0) < 0)
            return -1;
    *first = B;
    *second = NULL;
    return 0;
}

/* engine._gen_tees's land() */
static int tees_land(Gen *g, Out *A, Out *B, int r, char kind, int pid, int frm, int to, int n,
                     int x, int c)
{
    int q = g->b.occ[x];
    if (q < 0)
        return emit1(A, r, kind, pid, frm, to, n, NULL, 0, 0);
    int cq = q / NPEG;
    if (cq == c)
        return 0;
    CBump bb;
    bb.q = (short)q;
    bb.qf = (short)x;
    bb.qt = START;
    if (g->cf->team_of[cq] == g->cf->team_of[c])
        return emit1(B, r, kind, pid, frm, to, n, &bb, 1, 1);
    return emit1(A, r, kind, pid, frm, to, n, &bb, 1, 0);
}

static int gen_tees(Gen *g, Out *A, Out *B, Out **first)
{
    const FCfg *cf = g->cf;
    const Board *b = &g->b;
    int R = cf->R;
    *first = A;
    if (g->ncols == 0)
        return 0;
    int c = g->cols[0], tc = cf->team_of[c];
    int ins = cf->inspot[c], cout = cf->comeout[c];
    int hmc = b->hm[c];
    for (int ri = 0; ri < g->nranks; ri++) {
        int r = g->ranks[ri];
        if (r == 1 || r == 13) {
            if (g->nstarts && col_at(b, cout) != c)
                if (tees_land(g, A, B, r, 'o', g->starts[0], START, cout, 0, cout, c) < 0)
                    return -1;
            if (r == 13)
                continue;
        }
        if (r == 11) {
            for (int i = 0; i < g->nmov; i++) {
                int loc = g->mv[i].loc, pid = g->mv[i].pid;
                if (loc >= HOME0)
                    continue;
                for (int x = 0; x < R; x++) {
                    int q = b->occ[x];
                    if (q < 0 || q / NPEG == c)
                        continue;
                    if (emit1(A, 11, 't', pid, loc, x, q, NULL, 0, 0) < 0)
                        return -1;
                }
            }
            continue;
        }
        if (r == 3) {
            for (int i = 0; i < g->nmov; i++) {
                int loc = g->mv[i].loc, pid = g->mv[i].pid;
                if (loc < HOME0) {
                    if (wrap(loc - cout, R) < 3 || path_has_team(cf, b, loc, 2, -1, tc))
                        continue;
                    int x = wrap(loc - 3, R);
                    if (tees_land(g, A, B, 3, 'b', pid, loc, x, 3, x, c) < 0)
                        return -1;
                }
                else {
                    int k = loc - HOME0;
                    if ((hmc >> k) == (31 >> k))
                        continue; /* snug */
                    if (k >= 4) {
                        if (!((hmc >> (k - 4)) & 7))
                            if (emit1(A, 3, 'b', pid, loc, loc - 3, 3, NULL, 0, 0) < 0)
                                return -1;
                        continue;
                    }
                    if (hmc & ((1 << (k - 1)) - 1))
                        continue;
                    int x = wrap(ins - (3 - k), R);
                    /* holes ins .. x+1 (bwd[(ins+1)%R][3-k]), x itself excluded */
                    int blocked = 0, h = wrap(ins + 1, R);
                    for (int s = 0; s < 3 - k; s++) {
                        h = h == 0 ? R - 1 : h - 1;
                        int q = b->occ[h];
                        if (h != x && q >= 0 && cf->team_of[q / NPEG] == tc)
                            blocked = 1;
                    }
                    if (blocked)
                        continue;
                    if (tees_land(g, A, B, 3, 'b', pid, loc, x, 3, x, c) < 0)
                        return -1;
                }
            }
            continue;
        }
        int n = r;
        for (int i = 0; i < g->nmov; i++) {
            int loc = g->mv[i].loc, pid = g->mv[i].pid;
            if (loc >= HOME0) {
                int k = loc - HOME0;
                if (k + n <= 5 && !((hmc >> k) & ((1 << n) - 1)))
                    if (emit1(A, r, 'f', pid, loc, loc + n, n, NULL, 0, 0) < 0)
                        return -1;
                continue;
            }
            int d = wrap(ins - loc, R);
            if (n > d) {
                int h = n - d;
                if (h <= 5 && !path_has_team(cf, b, loc, d, 1, tc) && !(hmc & ((1 << h) - 1)))
                    if (emit1(A, r, 'f', pid, loc, HOME0 + h, n, NULL, 0, 0) < 0)
                        return -1;
                continue;
            }
            /* fwd[loc][n - 1]; Python's index -1 is the 13-hole row */
            if (path_has_team(cf, b, loc, n >= 1 ? n - 1 : 13, 1, tc))
                continue;
            int x = wrap(loc + n, R);
            if (tees_land(g, A, B, r, 'f', pid, loc, x, n, x, c) < 0)
                return -1;
        }
    }
    if (A->n == 0)
        *first = B;
    return 0;
}

/* the last pegs tuple read or made, and its values (tuples never change) */
static PyObject *PegsObj = NULL;
static const FCfg *PegsCfg = NULL;
static short PegsVal[MAXPEG];

static void pegs_remember(const FCfg *cf, PyObject *pegs, const short *vals)
{
    Py_INCREF(pegs);
    Py_XSETREF(PegsObj, pegs);
    PegsCfg = cf;
    memcpy(PegsVal, vals, sizeof(short) * cf->n * NPEG);
}

static int read_pegs(const FCfg *cf, PyObject *pegs, short *out)
{
    if (pegs == PegsObj && cf == PegsCfg) {
        memcpy(out, PegsVal, sizeof(short) * cf->n * NPEG);
        return 0;
    }
    if (!PyTuple_Check(pegs)) {
        PyErr_SetString(PyExc_TypeError, "pegs must be a tuple");
        return -1;
    }
    Py_ssize_t np = PyTuple_GET_SIZE(pegs);
    if (np != cf->n * NPEG) {
        PyErr_Format(PyExc_ValueError, "pegs has %zd entries, not %d", np, cf->n * NPEG);
        return -1;
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        long v;
        if (get_long(PyTuple_GET_ITEM(pegs, i), START, HOME0 + 5, "a peg location", &v) < 0)
            return -1;
        if ((v >= cf->R && v <= HOME0)) {
            PyErr_Format(PyExc_ValueError, "a peg location out of range: %ld", v);
            return -1;
        }
        out[i] = (short)v;
    }
    pegs_remember(cf, pegs, out);
    return 0;
}

static int read_card(PyObject *o, long *card)
{
    return get_long(o, 0, MAXCARD, "a card", card);
}

/* fill g for `seat` on `pegs` with `hand`, then run the generator (first, second: the lists) */
static int generate(const FCfg *cf, const short *pegs, int seat, PyObject *hand, Gen *g,
                    Out **first, Out **second)
{
    g->cf = cf;
    g->seat = seat;
    board_build(&g->b, cf, pegs);
    if (!PyTuple_Check(hand)) {
        PyErr_SetString(PyExc_TypeError, "a hand must be a tuple");
        return -1;
    }
    Py_ssize_t hn = PyTuple_GET_SIZE(hand);
    g->nranks = 0;
    for (Py_ssize_t i = 0; i < hn; i++) {
        long card;
        if (read_card(PyTuple_GET_ITEM(hand, i), &card) < 0)
            return -1;
        int r = (int)(card >> 2);
        if (g->nranks && g->ranks[g->nranks - 1] == r)
            continue;
        if (g->nranks >= MAXRANKS) {
            PyErr_SetString(PyExc_ValueError, "hand too long");
            return -1;
        }
        g->ranks[g->nranks++] = r;
    }
    g->ncols = controlled(cf, seat, g->b.pegs, g->cols);
    g->nmov = movers_of(g->b.pegs, g->cols, g->ncols, g->mv, g->starts, &g->nstarts);
    OutA.n = OutA.nb = 0;
    OutB.n = OutB.nb = 0;
    *second = NULL;
    if (cf->rules == TEES)
        return gen_tees(g, &OutA, &OutB, first);
    return gen_ct(g, &OutA, &OutB, first, second);
}

/* ------------------------------------------------------------------------------------------ */
/* PlayList: the legal list, compact, materialising engine.Play objects on demand             */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    CPlay *plays;
    CBump *bumps;
    PyObject **objs;
} PlayList;

static PyTypeObject PlayListType;

static PyObject *playlist_from(Out *a, Out *b)
{
    PlayList *pl = PyObject_New(PlayList, &PlayListType);
    if (pl == NULL)
        return NULL;
    pl->n = 0;
    pl->objs = NULL;
    pl->plays = NULL;
    pl->bumps = NULL;
    Py_ssize_t na = a ? a->n : 0, nb = b ? b->n : 0;
    Py_ssize_t ba = a ? a->nb : 0, bb = b ? b->nb : 0;
    pl->n = na + nb;
    pl->objs = NULL;
    pl->plays = PyMem_Malloc(sizeof(CPlay) * (pl->n ? pl->n : 1));
    pl->bumps = PyMem_Malloc(sizeof(CBump) * (ba + bb ? ba + bb : 1));
    if (pl->plays == NULL || pl->bumps == NULL) {
        Py_DECREF(pl);
        return PyErr_NoMemory();
    }
    if (na)
        memcpy(pl->plays, a->plays, sizeof(CPlay) * na);
    if (ba)
        memcpy(pl->bumps, a->bumps, sizeof(CBump) * ba);
    if (nb) {
        memcpy(pl->plays + na, b->plays, sizeof(CPlay) * nb);
        for (Py_ssize_t i = na; i < na + nb; i++)
            pl->plays[i].boff += (int)ba;
    }
    if (bb)
        memcpy(pl->bumps + ba, b->bumps, sizeof(CBump) * bb);
    return (PyObject *)pl;
}

static void PlayList_dealloc(PlayList *self)
{
    if (self->objs) {
        for (Py_ssize_t i = 0; i < self->n; i++)
            Py_XDECREF(self->objs[i]);
        PyMem_Free(self->objs);
    }
    PyMem_Free(self->plays);
    PyMem_Free(self->bumps);
    PyObject_Free(self);
}

/* A new instance of a NamedTuple type (a tuple subclass without a __dict__, checked by setup)
   with room for n items, all NULL until set. The caller fills it with ints and strings only,
   so it can be in no cycle: it is untracked at once, as `untracked` does for tuples. */
static PyObject *new_named(PyTypeObject *type, Py_ssize_t n)
{
    PyObject *t = type->tp_alloc(type, n);
    if (t != NULL && PyObject_GC_IsTracked(t))
        PyObject_GC_UnTrack(t);
    return t;
}

static PyObject *make_part(const CPart *p)
{
    PyObject *t = new_named(PartType, 5);
    if (t == NULL)
        return NULL;
    PyObject *k = KindStr[(unsigned char)p->kind & 127];
    Py_INCREF(k);
    PyTuple_SET_ITEM(t, 0, k);
    long v[4] = {p->pid, p->frm, p->to, p->n};
    for (int i = 0; i < 4; i++) {
        PyObject *o = PyLong_FromLong(v[i]);
        if (o == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i + 1, o);
    }
    return t;
}

static PyObject *make_bumps(const CBump *b, int nb)
{
    PyObject *t = untracked(PyTuple_New(nb));
    if (t == NULL)
        return NULL;
    for (int i = 0; i < nb; i++) {
        PyObject *e = new_named(BumpType, 3);
        if (e == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, e);
        /* holes and pegs are small ints: PyLong_FromLong returns cached objects */
        PyTuple_SET_ITEM(e, 0, PyLong_FromLong(b[i].q));
        PyTuple_SET_ITEM(e, 1, PyLong_FromLong(b[i].qf));
        PyTuple_SET_ITEM(e, 2, PyLong_FromLong(b[i].qt));
    }
    return t;
}

static PyObject *make_play(const CPlay *cp, const CBump *bumps)
{
    PyObject *parts = untracked(PyTuple_New(cp->np));
    PyObject *bt = untracked(PyTuple_New(cp->np));
    PyObject *rank = PyLong_FromLong(cp->rank);
    PyObject *obj = NULL;
    if (parts == NULL || bt == NULL || rank == NULL)
        goto fail;
    const CBump *b = bumps + cp->boff;
    for (int i = 0; i < cp->np; i++) {
        PyObject *p = make_part(&cp->p[i]);
        if (p == NULL)
            goto fail;
        PyTuple_SET_ITEM(parts, i, p);
        PyObject *q = make_bumps(b, cp->nb[i]);
        if (q == NULL)
            goto fail;
        PyTuple_SET_ITEM(bt, i, q);
        b += cp->nb[i];
    }
    obj = PlayType->tp_alloc(PlayType, 0);
    if (obj == NULL)
        goto fail;
    slot_set(obj, PlayOff[P_RANK], rank);
    slot_set(obj, PlayOff[P_PARTS], parts);
    slot_set(obj, PlayOff[P_BUMPS], bt);
    PyObject *last = cp->last ? Py_True : Py_False;
    Py_INCREF(last);
    slot_set(obj, PlayOff[P_LAST], last);
    Py_INCREF(Py_None);
    slot_set(obj, PlayOff[P_TOK], Py_None);
    return obj;
fail:
    Py_XDECREF(parts);
    Py_XDECREF(bt);
    Py_XDECREF(rank);
    return NULL;
}

static Py_ssize_t PlayList_len(PlayList *self)
{
    return self->n;
}

static PyObject *PlayList_item(PlayList *self, Py_ssize_t i)
{
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return NULL;
    }
    if (self->objs == NULL) {
        self->objs = PyMem_Calloc(self->n, sizeof(PyObject *));
        if (self->objs == NULL)
            return PyErr_NoMemory();
    }
    PyObject *o = self->objs[i];
    if (o == NULL) {
        o = make_play(&self->plays[i], self->bumps);
        if (o == NULL)
            return NULL;
        self->objs[i] = o;
    }
    Py_INCREF(o);
    return o;
}

static PyObject *PlayList_list(PlayList *self)
{
    PyObject *l = PyList_New(self->n);
    if (l == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *o = PlayList_item(self, i);
        if (o == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

static PyObject *PlayList_subscript(PlayList *self, PyObject *key)
{
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        if (i < 0)
            i += self->n;
        return PlayList_item(self, i);
    }
    if (PySlice_Check(key)) {
        PyObject *l = PlayList_list(self);
        if (l == NULL)
            return NULL;
        PyObject *r = PyObject_GetItem(l, key);
        Py_DECREF(l);
        return r;
    }
    PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %.200s",
                 Py_TYPE(key)->tp_name);
    return NULL;
}

static int PlayList_contains(PlayList *self, PyObject *v)
{
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *o = PlayList_item(self, i);
        if (o == NULL)
            return -1;
        int r = PyObject_RichCompareBool(o, v, Py_EQ);
        Py_DECREF(o);
        if (r != 0)
            return r;
    }
    return 0;
}

static PyObject *PlayList_concat(PlayList *self, PyObject *other)
{
    PyObject *l = PlayList_list(self);
    if (l == NULL)
        return NULL;
    PyObject *o = Py_TYPE(other) == &PlayListType ? PlayList_list((PlayList *)other)
                                                   : (Py_INCREF(other), other);
    if (o == NULL) {
        Py_DECREF(l);
        return NULL;
    }
    PyObject *r = PyNumber_Add(l, o);
    Py_DECREF(l);
    Py_DECREF(o);
    return r;
}

static PyObject *PlayList_richcompare(PyObject *self, PyObject *other, int op)
{
    if (op != Py_EQ && op != Py_NE && op != Py_LT && op != Py_LE && op != Py_GT && op != Py_GE)
        Py_RETURN_NOTIMPLEMENTED;
    if (Py_TYPE(other) != &PlayListType && !PyList_Check(other))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *a = PlayList_list((PlayList *)self);
    if (a == NULL)
        return NULL;
    PyObject *b = Py_TYPE(other) == &PlayListType ? PlayList_list((PlayList *)other)
                                                   : (Py_INCREF(other), other);
    if (b == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    PyObject *r = PyObject_RichCompare(a, b, op);
    Py_DECREF(a);
    Py_DECREF(b);
    return r;
}

static PyObject *PlayList_repr(PlayList *self)
{
    PyObject *l = PlayList_list(self);
    if (l == NULL)
        return NULL;
    PyObject *r = PyObject_Repr(l);
    Py_DECREF(l);
    return r;
}

static PyObject *PlayList_index(PlayList *self, PyObject *v)
{
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *o = PlayList_item(self, i);
        if (o == NULL)
            return NULL;
        int r = PyObject_RichCompareBool(o, v, Py_EQ);
        Py_DECREF(o);
        if (r < 0)
            return NULL;
        if (r)
            return PyLong_FromSsize_t(i);
    }
    PyErr_SetString(PyExc_ValueError, "play is not in list");
    return NULL;
}

static PyObject *PlayList_count(PlayList *self, PyObject *v)
{
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *o = PlayList_item(self, i);
        if (o == NULL)
            return NULL;
        int r = PyObject_RichCompareBool(o, v, Py_EQ);
        Py_DECREF(o);
        if (r < 0)
            return NULL;
        k += r;
    }
    return PyLong_FromSsize_t(k);
}

static PyObject *PlayList_tokens(PlayList *self, PyObject *unused);

/* pickle and copy as the plain list it stands for */
static PyObject *PlayList_reduce(PlayList *self, PyObject *unused)
{
    PyObject *l = PlayList_list(self);
    if (l == NULL)
        return NULL;
    PyObject *r = Py_BuildValue("(O(N))", (PyObject *)&PyList_Type, l);
    return r;
}

static PyMethodDef PlayList_methods[] = {
    {"index", (PyCFunction)PlayList_index, METH_O, "first index of a play"},
    {"count", (PyCFunction)PlayList_count, METH_O, "occurrences of a play"},
    {"tokens", (PyCFunction)PlayList_tokens, METH_NOARGS, "the play tokens, in order"},
    {"__reduce__", (PyCFunction)PlayList_reduce, METH_NOARGS, "pickles as a list"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods PlayList_as_seq = {
    .sq_length = (lenfunc)PlayList_len,
    .sq_concat = (binaryfunc)PlayList_concat,
    .sq_item = (ssizeargfunc)PlayList_item,
    .sq_contains = (objobjproc)PlayList_contains,
};

static PyMappingMethods PlayList_as_map = {
    .mp_length = (lenfunc)PlayList_len,
    .mp_subscript = (binaryfunc)PlayList_subscript,
};

static PyObject *PlayList_iter(PyObject *self)
{
    return PySeqIter_New(self);
}

static PyTypeObject PlayListType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "game.rules.track._fast.PlayList",
    .tp_basicsize = sizeof(PlayList),
    .tp_dealloc = (destructor)PlayList_dealloc,
    .tp_repr = (reprfunc)PlayList_repr,
    .tp_as_sequence = &PlayList_as_seq,
    .tp_as_mapping = &PlayList_as_map,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE,
    .tp_richcompare = PlayList_richcompare,
    .tp_iter = PlayList_iter,
    .tp_methods = PlayList_methods,
    .tp_doc = "The legal plays of a state: a read-only list of engine.Play, built on demand.",
};

/* token text, as engine.Play.token */
static const char *RankChars[14] = {"JK", "A", "2", "3", "4", "5", "6", "7",
                                    "8", "9", "T", "J", "Q", "K"};

static int loc_text(char *buf, int loc)
{
    if (loc == START)
        return sprintf(buf, "s");
    if (loc >= HOME0)
        return sprintf(buf, "h%d", loc - HOME0);
    return sprintf(buf, "%d", loc);
}

static PyObject *PlayList_tokens(PlayList *self, PyObject *unused)
{
    PyObject *l = PyList_New(self->n);
    if (l == NULL)
        return NULL;
    char buf[128];
    for (Py_ssize_t i = 0; i < self->n; i++) {
        const CPlay *cp = &self->plays[i];
        int k = sprintf(buf, "%s:", RankChars[cp->rank % 14]);
        for (int j = 0; j < cp->np; j++) {
            const CPart *p = &cp->p[j];
            char c = (char)('a' + (p->pid >= 0 ? p->pid / NPEG : 0));
            if (j)
                buf[k++] = ',';
            switch (p->kind) {
            case 'o':
                k += sprintf(buf + k, "%cs", c);
                break;
            case 'f':
                buf[k++] = c;
                k += loc_text(buf + k, p->frm);
                k += sprintf(buf + k, "+%d%s", p->n, (p->frm < HOME0 && p->to >= HOME0) ? "h" : "");
                break;
            case 'b':
                buf[k++] = c;
                k += loc_text(buf + k, p->frm);
                k += sprintf(buf + k, "-%d", p->n);
                break;
            case 'j':
                buf[k++] = c;
                k += loc_text(buf + k, p->frm);
                k += sprintf(buf + k, ">%d", p->to);
                break;
            case 't':
                k += sprintf(buf + k, "%c%dx%d", c, p->frm, p->to);
                break;
            default:
                buf[k++] = 'x';
            }
        }
        PyObject *s = PyUnicode_FromStringAndSize(buf, k);
        if (s == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, s);
    }
    return l;
}

/* ------------------------------------------------------------------------------------------ */
/* legal(state)                                                                                */

static Gen G;

static PyObject *seat_legal(const FCfg *cf, const short *pegs, int seat, PyObject *hand)
{
    Out *first, *second;
    if (generate(cf, pegs, seat, hand, &G, &first, &second) < 0)
        return NULL;
    return playlist_from(first, second);
}

static PyObject *fast_legal(PyObject *mod, PyObject *st)
{
    if (check_state(st) < 0)
        return NULL;
    const FCfg *cf = state_cfg(st);
    if (cf == NULL)
        return NULL;
    PyObject *turn_o = state_get(st, S_TURN);
    if (turn_o == NULL)
        return NULL;
    long turn;
    if (get_long(turn_o, -1, cf->n - 1, "turn", &turn) < 0)
        return NULL;
    if (turn < 0)
        return playlist_from(NULL, NULL);
    short pegs[MAXPEG];
    PyObject *pegs_o = state_get(st, S_PEGS), *hands = state_get(st, S_HANDS);
    if (pegs_o == NULL || hands == NULL || read_pegs(cf, pegs_o, pegs) < 0)
        return NULL;
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != cf->n) {
        PyErr_SetString(PyExc_ValueError, "hands must be a tuple with one hand per seat");
        return NULL;
    }
    return seat_legal(cf, pegs, (int)turn, PyTuple_GET_ITEM(hands, turn));
}

/* ------------------------------------------------------------------------------------------ */
/* Apply                                                                                       */

typedef struct {
    const FCfg *cf;
    short pegs[MAXPEG];
    PyObject *pegs_o; /* the unchanged pegs tuple, or NULL when pegs changed */
    PyObject *hands[MAXC];
    PyObject *pile, *discards;
    PyObject *rng_o;
    uint64_t rng;
    int rng_dirty;
    long turn, dealer, round, nplays, winner, idle;
    PyObject *legal;
} CState;

static void cstate_clear(CState *s)
{
    for (int i = 0; i < MAXC; i++)
        Py_CLEAR(s->hands[i]);
    Py_CLEAR(s->pile);
    Py_CLEAR(s->discards);
    Py_CLEAR(s->rng_o);
    Py_CLEAR(s->pegs_o);
    Py_CLEAR(s->legal);
}

static int cards_check(PyObject *t, const char *what)
{
    if (!PyTuple_Check(t)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple", what);
        return -1;
    }
    return 0;
}

static int cstate_load(CState *s, PyObject *st, const FCfg *cf)
{
    memset(s, 0, sizeof(*s));
    s->cf = cf;
    PyObject *o;
    if ((o = state_get(st, S_PEGS)) == NULL || read_pegs(cf, o, s->pegs) < 0)
        return -1;
    s->pegs_o = o;
    Py_INCREF(o);
    PyObject *hands = state_get(st, S_HANDS);
    if (hands == NULL)
        return -1;
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != cf->n) {
        PyErr_SetString(PyExc_ValueError, "hands must be a tuple with one hand per seat");
        return -1;
    }
    for (int i = 0; i < cf->n; i++) {
        PyObject *h = PyTuple_GET_ITEM(hands, i);
        if (cards_check(h, "a hand") < 0)
            return -1;
        Py_INCREF(h);
        s->hands[i] = h;
    }
    if ((o = state_get(st, S_PILE)) == NULL || cards_check(o, "pile") < 0)
        return -1;
    Py_INCREF(o);
    s->pile = o;
    if ((o = state_get(st, S_DISCARDS)) == NULL || cards_check(o, "discards") < 0)
        return -1;
    Py_INCREF(o);
    s->discards = o;
    if ((o = state_get(st, S_RNG)) == NULL)
        return -1;
    Py_INCREF(o);
    s->rng_o = o;
    long *fields[6] = {&s->turn, &s->dealer, &s->round, &s->nplays, &s->winner, &s->idle};
    int idx[6] = {S_TURN, S_DEALER, S_ROUND, S_NPLAYS, S_WINNER, S_IDLE};
    long lo[6] = {-1, 0, 0, 0, -1, 0};
    long hi[6] = {cf->n - 1, cf->n - 1, 1000, LONG_MAX / 2, cf->nteams - 1, 100000};
    for (int i = 0; i < 6; i++) {
        if ((o = state_get(st, idx[i])) == NULL ||
            get_long(o, lo[i], hi[i], StateSlots[idx[i]], fields[i]) < 0)
            return -1;
    }
    return 0;
}

static int rng_get(CState *s)
{
    if (s->rng_dirty)
        return 0;
    if (!PyLong_Check(s->rng_o)) {
        PyErr_SetString(PyExc_TypeError, "rng must be an int");
        return -1;
    }
    /* cards.Rng masks its state to 64 bits on the first draw */
    unsigned long long v = PyLong_AsUnsignedLongLongMask(s->rng_o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    s->rng = v;
    s->rng_dirty = 1;
    return 0;
}

static uint64_t next_u64(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *state, uint64_t n)
{
    uint64_t rem = (0 - n) % n; /* 2**64 % n */
    for (;;) {
        uint64_t x = next_u64(state);
        if (rem == 0 || x < 0 - rem)
            return x % n;
    }
}

/* sorted(cards) shuffled by the state's rng, as a new tuple */
static PyObject *sorted_shuffled(CState *s, PyObject *a, PyObject *b)
{
    Py_ssize_t na = PyTuple_GET_SIZE(a), nb = b ? PyTuple_GET_SIZE(b) : 0;
    Py_ssize_t n = na + nb;
    if (n > 1 && rng_get(s) < 0) /* fewer than 2 cards: no draw from the generator */
        return NULL;
    Py_ssize_t count[MAXCARD + 1];
    memset(count, 0, sizeof(count));
    for (Py_ssize_t i = 0; i < n; i++) {
        long c;
        if (read_card(PyTuple_GET_ITEM(i < na ? a : b, i < na ? i : i - na), &c) < 0)
            return NULL;
        count[c]++;
    }
    long *cards = PyMem_Malloc(sizeof(long) * (n ? n : 1));
    if (cards == NULL)
        return PyErr_NoMemory();
    Py_ssize_t k = 0;
    for (int c = 0; c <= MAXCARD; c++)
        for (Py_ssize_t j = 0; j < count[c]; j++)
            cards[k++] = c;
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(&s->rng, (uint64_t)(i + 1));
        long t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    PyObject *t = untracked(PyTuple_New(n)); /* new ints only */
    if (t == NULL) {
        PyMem_Free(cards);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(cards[i])); /* small ints: never fails */
    PyMem_Free(cards);
    return t;
}

static PyObject *EmptyTuple = NULL;

/* engine._draw */
static int draw(CState *s, int seat)
{
    if (PyTuple_GET_SIZE(s->pile) == 0) {
        PyObject *p = sorted_shuffled(s, s->discards, NULL);
        if (p == NULL)
            return -1;
        Py_SETREF(s->pile, p);
        Py_INCREF(EmptyTuple);
        Py_SETREF(s->discards, EmptyTuple);
        if (PyTuple_GET_SIZE(s->pile) == 0)
            return 0;
    }
    Py_ssize_t np = PyTuple_GET_SIZE(s->pile);
    PyObject *card_o = PyTuple_GET_ITEM(s->pile, np - 1);
    long card;
    if (read_card(card_o, &card) < 0)
        return -1;
    PyObject *p = PyTuple_GetSlice(s->pile, 0, np - 1);
    if (p == NULL)
        return -1;
    Py_SETREF(s->pile, p);
    PyObject *h = s->hands[seat];
    Py_ssize_t hn = PyTuple_GET_SIZE(h), lo = 0, hi = hn;
    while (lo < hi) { /* engine._insert: bisect_right */
        Py_ssize_t mid = (lo + hi) / 2;
        long c;
        if (read_card(PyTuple_GET_ITEM(h, mid), &c) < 0)
            return -1;
        if (card < c)
            hi = mid;
        else
            lo = mid + 1;
    }
    Py_ssize_t at = lo;
    PyObject *nh = PyTuple_New(hn + 1);
    if (nh == NULL)
        return -1;
    for (Py_ssize_t i = 0, j = 0; i <= hn; i++) {
        PyObject *o = i == at ? card_o : PyTuple_GET_ITEM(h, j++);
        Py_INCREF(o);
        PyTuple_SET_ITEM(nh, i, o);
    }
    untrack_checked(nh);
    Py_SETREF(s->hands[seat], nh);
    return 0;
}

static PyObject *tuple_plus(PyObject *a, PyObject *b)
{
    return PySequence_Concat(a, b);
}

static const short *cstate_pegs(CState *s)
{
    return s->pegs;
}

/* engine._tees_deal */
static int tees_deal(CState *s)
{
    const FCfg *cf = s->cf;
    int n = cf->n;
    static const int s4[3] = {5, 4, 4}, s6[2] = {4, 4};
    const int *sched;
    int ns;
    if (n == 4) {
        sched = s4;
        ns = 3;
    }
    else if (n == 6) {
        sched = s6;
        ns = 2;
    }
    else {
        PyErr_SetString(PyExc_ValueError, "tees is for 4 or 6 seats");
        return -1;
    }
    if (s->round >= ns || PyTuple_GET_SIZE(s->pile) < (Py_ssize_t)sched[s->round] * n) {
        s->dealer = (s->dealer + 1) % n;
        PyObject *p = sorted_shuffled(s, s->discards, s->pile);
        if (p == NULL)
            return -1;
        Py_SETREF(s->pile, p);
        Py_INCREF(EmptyTuple);
        Py_SETREF(s->discards, EmptyTuple);
        s->round = 0;
    }
    int k = sched[s->round];
    Py_ssize_t np = PyTuple_GET_SIZE(s->pile);
    if (np < (Py_ssize_t)k * n) {
        PyErr_SetString(RulesErrorObj, "too few cards to deal");
        return -1;
    }
    /* cards per seat: existing hand + dealt, sorted */
    for (int j = 1; j <= n; j++) {
        int seat = (int)((s->dealer + j) % n);
        PyObject *h = s->hands[seat];
        Py_ssize_t hn = PyTuple_GET_SIZE(h);
        Py_ssize_t count[MAXCARD + 1];
        memset(count, 0, sizeof(count));
        for (Py_ssize_t i = 0; i < hn; i++) {
            long c;
            if (read_card(PyTuple_GET_ITEM(h, i), &c) < 0)
                return -1;
            count[c]++;
        }
        for (int r = 0; r < k; r++) {
            long c;
            if (read_card(PyTuple_GET_ITEM(s->pile, np - 1 - ((Py_ssize_t)r * n + (j - 1))), &c) < 0)
                return -1;
            count[c]++;
        }
        PyObject *nh = untracked(PyTuple_New(hn + k)); /* new ints only */
        if (nh == NULL)
            return -1;
        Py_ssize_t at = 0;
        for (int c = 0; c <= MAXCARD; c++)
            for (Py_ssize_t m = 0; m < count[c]; m++)
                PyTuple_SET_ITEM(nh, at++, PyLong_FromLong(c));
        Py_SETREF(s->hands[seat], nh);
    }
    PyObject *p = PyTuple_GetSlice(s->pile, 0, np - (Py_ssize_t)k * n);
    if (p == NULL)
        return -1;
    Py_SETREF(s->pile, p);
    s->round += 1;
    s->idle += 1;
    if (s->idle > 1000) {
        PyErr_SetString(RulesErrorObj,
                        "no seat has been able to play for 1000 deals: the game is stuck");
        return -1;
    }
    return 0;
}

/* engine._tees_continue (events None) */
static int tees_continue(CState *s, long after)
{
    const FCfg *cf = s->cf;
    int n = cf->n;
    Py_CLEAR(s->legal);
    for (;;) {
        int seat = -1;
        for (int j = 1; j <= n; j++) {
            int t = (int)(((after + j) % n + n) % n);
            if (PyTuple_GET_SIZE(s->hands[t])) {
                seat = t;
                break;
            }
        }
        if (seat < 0) {
            if (tees_deal(s) < 0)
                return -1;
            after = s->dealer;
            continue;
        }
        s->turn = seat;
        PyObject *lg = seat_legal(cf, cstate_pegs(s), seat, s->hands[seat]);
        if (lg == NULL)
            return -1;
        if (((PlayList *)lg)->n) {
            s->legal = lg;
            return 0;
        }
        Py_DECREF(lg);
        PyObject *d = tuple_plus(s->discards, s->hands[seat]);
        if (d == NULL)
            return -1;
        Py_SETREF(s->discards, d);
        Py_INCREF(EmptyTuple);
        Py_SETREF(s->hands[seat], EmptyTuple);
        after = seat;
    }
}

static PyObject *long_or_same(PyObject *old, long v)
{
    if (old != NULL && PyLong_CheckExact(old)) {
        long o = PyLong_AsLong(old);
        if (!(o == -1 && PyErr_Occurred()) && o == v) {
            Py_INCREF(old);
            return old;
        }
        PyErr_Clear();
    }
    return PyLong_FromLong(v);
}

/* write every field of s into the state object `dst` (whose cfg/seed are set) */
static int cstate_store(CState *s, PyObject *dst, PyObject *src)
{
    PyObject *pegs;
    if (s->pegs_o) {
        pegs = s->pegs_o;
        Py_INCREF(pegs);
    }
    else {
        int np = s->cf->n * NPEG;
        pegs = PyTuple_New(np);
        if (pegs == NULL)
            return -1;
        for (int i = 0; i < np; i++)
            PyTuple_SET_ITEM(pegs, i, PyLong_FromLong(s->pegs[i])); /* small ints */
        untracked(pegs);
        pegs_remember(s->cf, pegs, s->pegs);
    }
    PyObject *hands = PyTuple_New(s->cf->n);
    if (hands == NULL) {
        Py_DECREF(pegs);
        return -1;
    }
    for (int i = 0; i < s->cf->n; i++) {
        Py_INCREF(s->hands[i]);
        PyTuple_SET_ITEM(hands, i, s->hands[i]);
    }
    untrack_checked(hands);
    PyObject *rng;
    if (s->rng_dirty)
        rng = PyLong_FromUnsignedLongLong(s->rng);
    else {
        rng = s->rng_o;
        Py_INCREF(rng);
    }
    PyObject *vals[6];
    long *fields[6] = {&s->turn, &s->dealer, &s->round, &s->nplays, &s->winner, &s->idle};
    int idx[6] = {S_TURN, S_DEALER, S_ROUND, S_NPLAYS, S_WINNER, S_IDLE};
    int bad = rng == NULL;
    for (int i = 0; i < 6; i++) {
        vals[i] = long_or_same(src ? SLOT(src, StateOff[idx[i]]) : NULL, *fields[i]);
        if (vals[i] == NULL)
            bad = 1;
    }
    if (bad) {
        Py_DECREF(pegs);
        Py_DECREF(hands);
        Py_XDECREF(rng);
        for (int i = 0; i < 6; i++)
            Py_XDECREF(vals[i]);
        return -1;
    }
    slot_set(dst, StateOff[S_PEGS], pegs);
    slot_set(dst, StateOff[S_HANDS], hands);
    slot_set(dst, StateOff[S_RNG], rng);
    Py_INCREF(s->pile);
    slot_set(dst, StateOff[S_PILE], s->pile);
    Py_INCREF(s->discards);
    slot_set(dst, StateOff[S_DISCARDS], s->discards);
    for (int i = 0; i < 6; i++)
        slot_set(dst, StateOff[idx[i]], vals[i]);
    PyObject *lg = s->legal ? s->legal : Py_None;
    Py_INCREF(lg);
    slot_set(dst, StateOff[S_LEGAL], lg);
    Py_INCREF(Py_None);
    slot_set(dst, StateOff[S_BOARD], Py_None);
    return 0;
}

/* a play's parts and bumps, read and checked */
typedef struct {
    int rank, np;
    CPart p[2];
    int nb[2];
    CBump b[2][MAXB];
} DPlay;

static PyObject *play_attr(PyObject *play, int i)
{
    if (PlayType && PyObject_TypeCheck(play, PlayType)) {
        PyObject *v = SLOT(play, PlayOff[i]);
        if (v == NULL) {
            PyErr_Format(PyExc_AttributeError, "play has no %s", PlaySlots[i]);
            return NULL;
        }
        Py_INCREF(v);
        return v;
    }
    return PyObject_GetAttrString(play, PlaySlots[i]);
}

static int check_loc(const FCfg *cf, long v, int ring_only)
{
    if ((v >= 0 && v < cf->R) || (!ring_only && (v == START || (v > HOME0 && v <= HOME0 + 5))))
        return 0;
    PyErr_Format(PyExc_ValueError, "a play names location %ld, which is not on this board", v);
    return -1;
}

static int decode_play(const FCfg *cf, PyObject *play, DPlay *d)
{
    PyObject *rank = NULL, *parts = NULL, *bumps = NULL;
    int ret = -1;
    long v;
    if ((rank = play_attr(play, P_RANK)) == NULL || (parts = play_attr(play, P_PARTS)) == NULL ||
        (bumps = play_attr(play, P_BUMPS)) == NULL)
        goto out;
    if (get_long(rank, 0, 13, "a play's rank", &v) < 0)
        goto out;
    d->rank = (int)v;
    if (!PyTuple_Check(parts) || !PyTuple_Check(bumps)) {
        PyErr_SetString(PyExc_TypeError, "a play's parts and bumps must be tuples");
        goto out;
    }
    Py_ssize_t np = PyTuple_GET_SIZE(parts);
    if (np < 1 || np > 2) {
        PyErr_SetString(PyExc_ValueError, "a play has one or two parts");
        goto out;
    }
    if (PyTuple_GET_SIZE(bumps) != np) {
        PyErr_SetString(PyExc_ValueError, "a play needs one bump list per part");
        goto out;
    }
    d->np = (int)np;
    int npeg = cf->n * NPEG;
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *pt = PyTuple_GET_ITEM(parts, i);
        if (!PyTuple_Check(pt) || PyTuple_GET_SIZE(pt) != 5) {
            PyErr_SetString(PyExc_ValueError, "a play part is a 5-tuple");
            goto out;
        }
        PyObject *k = PyTuple_GET_ITEM(pt, 0);
        if (!PyUnicode_Check(k) || PyUnicode_GET_LENGTH(k) != 1) {
            PyErr_SetString(PyExc_ValueError, "a play part's kind is one letter");
            goto out;
        }
        Py_UCS4 kc = PyUnicode_READ_CHAR(k, 0);
        if (kc != 'o' && kc != 'f' && kc != 'b' && kc != 'j' && kc != 't' && kc != 'x') {
            PyErr_SetString(PyExc_ValueError, "unknown play part kind");
            goto out;
        }
        if (kc == 'x' && i > 0) {
            PyErr_SetString(PyExc_ValueError, "a discard is a play's only part");
            goto out;
        }
        long f[4];
        for (int j = 0; j < 4; j++)
            if (get_long(PyTuple_GET_ITEM(pt, j + 1), -1000, 1000, "a play part field", &f[j]) < 0)
                goto out;
        CPart *p = &d->p[i];
        p->kind = (char)kc;
        if (kc != 'x') {
            if (f[0] < 0 || f[0] >= npeg) {
                PyErr_Format(PyExc_ValueError, "a play moves peg %ld, not on this board", f[0]);
                goto out;
            }
            if (check_loc(cf, f[1], 0) < 0 || check_loc(cf, f[2], kc == 't') < 0)
                goto out;
            if (f[2] == START) {
                PyErr_SetString(PyExc_ValueError, "a play part cannot end in start");
                goto out;
            }
            if (kc == 't') {
                if (f[3] < 0 || f[3] >= npeg || check_loc(cf, f[1], 1) < 0) {
                    PyErr_SetString(PyExc_ValueError, "a trade needs two ring pegs");
                    goto out;
                }
            }
        }
        p->pid = (signed char)f[0];
        p->frm = (short)f[1];
        p->to = (short)f[2];
        p->n = (short)f[3];
        PyObject *bl = PyTuple_GET_ITEM(bumps, i);
        if (!PyTuple_Check(bl) || PyTuple_GET_SIZE(bl) > MAXB) {
            PyErr_SetString(PyExc_ValueError, "a part's bumps must be a short tuple");
            goto out;
        }
        d->nb[i] = (int)PyTuple_GET_SIZE(bl);
        for (int j = 0; j < d->nb[i]; j++) {
            PyObject *bt = PyTuple_GET_ITEM(bl, j);
            long q, qf, qt;
            if (!PyTuple_Check(bt) || PyTuple_GET_SIZE(bt) != 3) {
                PyErr_SetString(PyExc_ValueError, "a bump is a 3-tuple");
                goto out;
            }
            if (get_long(PyTuple_GET_ITEM(bt, 0), 0, npeg - 1, "a bumped peg", &q) < 0 ||
                get_long(PyTuple_GET_ITEM(bt, 1), -1000, 1000, "a bump's hole", &qf) < 0 ||
                get_long(PyTuple_GET_ITEM(bt, 2), -1000, 1000, "a bump's hole", &qt) < 0)
                goto out;
            if (check_loc(cf, qf, 0) < 0 || check_loc(cf, qt, 0) < 0)
                goto out;
            d->b[i][j].q = (short)q;
            d->b[i][j].qf = (short)qf;
            d->b[i][j].qt = (short)qt;
        }
    }
    ret = 0;
out:
    Py_XDECREF(rank);
    Py_XDECREF(parts);
    Py_XDECREF(bumps);
    return ret;
}

static PyObject *fast_apply(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "apply(state, seat, play)");
        return NULL;
    }
    PyObject *st = args[0];
    if (check_state(st) < 0)
        return NULL;
    const FCfg *cf = state_cfg(st);
    if (cf == NULL)
        return NULL;
    long seat;
    if (get_long(args[1], 0, cf->n - 1, "seat", &seat) < 0)
        return NULL;
    DPlay d;
    memset(&d, 0, sizeof(d));
    if (decode_play(cf, args[2], &d) < 0)
        return NULL;
    CState s;
    PyObject *res = NULL;
    if (cstate_load(&s, st, cf) < 0)
        goto done;
    /* take the card */
    {
        PyObject *h = s.hands[seat];
        Py_ssize_t hn = PyTuple_GET_SIZE(h), at = -1;
        for (Py_ssize_t i = 0; i < hn; i++) {
            long c;
            if (read_card(PyTuple_GET_ITEM(h, i), &c) < 0)
                goto done;
            if ((c >> 2) == d.rank) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            PyErr_Format(RulesErrorObj, "no card of rank %d in hand", d.rank);
            goto done;
        }
        PyObject *card = PyTuple_GET_ITEM(h, at);
        PyObject *nh = PyTuple_New(hn - 1);
        if (nh == NULL)
            goto done;
        for (Py_ssize_t i = 0, j = 0; i < hn; i++) {
            if (i == at)
                continue;
            PyObject *o = PyTuple_GET_ITEM(h, i);
            Py_INCREF(o);
            PyTuple_SET_ITEM(nh, j++, o);
        }
        untrack_checked(nh);
        Py_ssize_t nd = PyTuple_GET_SIZE(s.discards);
        PyObject *disc = PyTuple_New(nd + 1);
        if (disc == NULL) {
            Py_DECREF(nh);
            goto done;
        }
        for (Py_ssize_t i = 0; i < nd; i++) {
            PyObject *o = PyTuple_GET_ITEM(s.discards, i);
            Py_INCREF(o);
            PyTuple_SET_ITEM(disc, i, o);
        }
        Py_INCREF(card);
        PyTuple_SET_ITEM(disc, nd, card);
        Py_SETREF(s.hands[seat], nh);
        Py_SETREF(s.discards, disc);
    }
    s.nplays += 1;
    s.idle = 0;
    Py_CLEAR(s.legal);
    if (d.p[0].kind != 'x') {
        int homed = 0;
        Py_CLEAR(s.pegs_o);
        for (int i = 0; i < d.np; i++) {
            CPart *p = &d.p[i];
            if (p->kind == 't') {
                s.pegs[p->pid] = p->to;
                s.pegs[p->n] = p->frm;
            }
            else {
                for (int j = 0; j < d.nb[i]; j++)
                    s.pegs[d.b[i][j].q] = d.b[i][j].qt;
                s.pegs[p->pid] = p->to;
            }
            if (p->to >= HOME0)
                homed = 1;
        }
        int team = cf->team_of[seat];
        if (homed) {
            int all = 1;
            for (int i = 0; i < cf->nteam[team]; i++)
                if (!done(s.pegs, cf->teams[team][i]))
                    all = 0;
            if (all) {
                s.winner = team;
                s.turn = -1;
                goto build;
            }
        }
    }
    if (cf->rules == TEES) {
        if (tees_continue(&s, seat) < 0)
            goto done;
    }
    else if (cf->rules == CLASSIC) {
        s.turn = (seat + 1) % cf->n;
        if (draw(&s, (int)s.turn) < 0)
            goto done;
    }
    else {
        if (draw(&s, (int)seat) < 0)
            goto done;
        s.turn = (seat + 1) % cf->n;
    }
build:
    res = StateType->tp_alloc(StateType, 0);
    if (res == NULL)
        goto done;
    {
        PyObject *cfg = SLOT(st, StateOff[S_CFG]), *seed = SLOT(st, StateOff[S_SEED]);
        if (seed == NULL) {
            PyErr_SetString(PyExc_AttributeError, "track state has no seed");
            Py_CLEAR(res);
            goto done;
        }
        Py_INCREF(cfg);
        slot_set(res, StateOff[S_CFG], cfg);
        Py_INCREF(seed);
        slot_set(res, StateOff[S_SEED], seed);
    }
    if (cstate_store(&s, res, st) < 0)
        Py_CLEAR(res);
done:
    cstate_clear(&s);
    return res;
}

static PyObject *fast_tees_continue(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tees_continue(state, after)");
        return NULL;
    }
    PyObject *st = args[0];
    if (check_state(st) < 0)
        return NULL;
    const FCfg *cf = state_cfg(st);
    if (cf == NULL)
        return NULL;
    if (cf->rules != TEES) {
        PyErr_SetString(PyExc_ValueError, "tees_continue is for tees games");
        return NULL;
    }
    long after;
    if (get_long(args[1], -1000, 1000, "after", &after) < 0)
        return NULL;
    CState s;
    PyObject *res = NULL;
    if (cstate_load(&s, st, cf) < 0)
        goto done;
    if (tees_continue(&s, after) < 0)
        goto done;
    if (cstate_store(&s, st, st) < 0)
        goto done;
    res = Py_None;
    Py_INCREF(res);
done:
    cstate_clear(&s);
    return res;
}

/* ------------------------------------------------------------------------------------------ */
/* setup                                                                                       */

static int find_offsets(PyTypeObject *type, const char **names, int n, Py_ssize_t *off)
{
    for (int i = 0; i < n; i++) {
        PyObject *d = PyDict_GetItemString(type->tp_dict, names[i]);
        if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "%s has no slot %s", type->tp_name, names[i]);
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot", type->tp_name, names[i]);
            return -1;
        }
        off[i] = m->offset;
    }
    return 0;
}

static PyObject *fast_setup(PyObject *mod, PyObject *args)
{
    PyObject *play, *state, *err, *part, *bump;
    if (!PyArg_ParseTuple(args, "O!O!OO!O!:setup", &PyType_Type, &play, &PyType_Type, &state,
                          &err, &PyType_Type, &part, &PyType_Type, &bump))
        return NULL;
    PyTypeObject *named[2] = {(PyTypeObject *)part, (PyTypeObject *)bump};
    for (int i = 0; i < 2; i++)
        if (!PyType_IsSubtype(named[i], &PyTuple_Type) ||
            named[i]->tp_basicsize != PyTuple_Type.tp_basicsize ||
            named[i]->tp_itemsize != PyTuple_Type.tp_itemsize) {
            PyErr_Format(PyExc_TypeError, "%s must be a NamedTuple (a tuple with no __dict__)",
                         named[i]->tp_name);
            return NULL;
        }
    Py_ssize_t po[P_NSLOTS], so[S_NSLOTS];
    if (find_offsets((PyTypeObject *)play, PlaySlots, P_NSLOTS, po) < 0 ||
        find_offsets((PyTypeObject *)state, StateSlots, S_NSLOTS, so) < 0)
        return NULL;
    memcpy(PlayOff, po, sizeof(po));
    memcpy(StateOff, so, sizeof(so));
    Py_INCREF(play);
    Py_XSETREF(PlayType, (PyTypeObject *)play);
    Py_INCREF(state);
    Py_XSETREF(StateType, (PyTypeObject *)state);
    Py_INCREF(err);
    Py_XSETREF(RulesErrorObj, err);
    Py_INCREF(part);
    Py_XSETREF(PartType, (PyTypeObject *)part);
    Py_INCREF(bump);
    Py_XSETREF(BumpType, (PyTypeObject *)bump);
    Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
    {"setup", fast_setup, METH_VARARGS, "setup(Play, TrackState, RulesError, Part, Bump)"},
    {"legal", fast_legal, METH_O, "legal(state) -> PlayList"},
    {"apply", (PyCFunction)(void (*)(void))fast_apply, METH_FASTCALL,
     "apply(state, seat, play) -> new state (no events)"},
    {"tees_continue", (PyCFunction)(void (*)(void))fast_tees_continue, METH_FASTCALL,
     "tees_continue(state, after): engine._tees_continue without events, in place"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT, "_fast", "C core of the track-game engine.", -1, fast_methods,
};

PyMODINIT_FUNC PyInit__fast(void)
{
    if (PyType_Ready(&FCfgType) < 0 || PyType_Ready(&PlayListType) < 0)
        return NULL;
    const char *kinds = "ofbjtx";
    for (int i = 0; kinds[i]; i++) {
        char s[2] = {kinds[i], 0};
        KindStr[(int)kinds[i]] = PyUnicode_InternFromString(s);
        if (KindStr[(int)kinds[i]] == NULL)
            return NULL;
    }
    for (int i = 0; i < 128; i++)
        if (KindStr[i] == NULL) {
            KindStr[i] = KindStr['x'];
            Py_INCREF(KindStr[i]);
        }
    FastName = PyUnicode_InternFromString("fast");
    if (FastName == NULL)
        return NULL;
    EmptyTuple = PyTuple_New(0);
    if (EmptyTuple == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&fast_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API", 2) < 0)
        return NULL;
    Py_INCREF(&FCfgType);
    if (PyModule_AddObject(m, "Config", (PyObject *)&FCfgType) < 0)
        return NULL;
    Py_INCREF(&PlayListType);
    if (PyModule_AddObject(m, "PlayList", (PyObject *)&PlayListType) < 0)
        return NULL;
    return m;
}
