/* The chance streams' 64-bit arithmetic in C (docs/chance.md).
 *
 * referee/games/chance.py holds the same functions in Python and uses these
 * when this module was built: SplitMix64 on Python integers costs a few
 * hundred nanoseconds a call, about as much as a Leduc decision, and a deal
 * draws dozens of times. Every function here is the page's definition
 * exactly (tests/test_chance_streams.py checks both against its vectors and
 * against each other); integers arrive reduced modulo 2**64, as the page
 * reduces a match seed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static inline uint64_t splitmix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The n-th draw of the stream with seed `seed` (n = 1, 2, ...). */
static inline uint64_t draw(uint64_t seed, uint64_t n) {
    return splitmix64(seed ^ splitmix64(n));
}

/* Lemire's multiply-shift: the high 64 bits of the 128-bit product. */
static inline uint64_t scale(uint64_t value, uint64_t n) {
    return (uint64_t)(((unsigned __int128)value * n) >> 64);
}

/* An integer argument reduced modulo 2**64 (any sign, any size). */
static int as_u64(PyObject *obj, uint64_t *out) {
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected an int, not %.100s", Py_TYPE(obj)->tp_name);
        return 0;
    }
    *out = (uint64_t)PyLong_AsUnsignedLongLongMask(obj);
    return !(*out == (uint64_t)-1 && PyErr_Occurred());
}

/* A bound n for below(n): 0 <= n < 2**64, as the page's games use it. */
static int as_bound(PyObject *obj, uint64_t *out) {
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected an int, not %.100s", Py_TYPE(obj)->tp_name);
        return 0;
    }
    *out = (uint64_t)PyLong_AsUnsignedLongLong(obj);
    return !(*out == (uint64_t)-1 && PyErr_Occurred());
}

static PyObject *py_splitmix64(PyObject *self, PyObject *arg) {
    uint64_t x;
    if (!as_u64(arg, &x)) return NULL;
    return PyLong_FromUnsignedLongLong(splitmix64(x));
}

/* derive_seed(seed, name): h = seed mod 2**64, then h = splitmix64(h ^ b) for each byte of name. */
static PyObject *py_derive_seed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t h;
    Py_ssize_t size;
    const char *bytes;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "derive_seed(seed, name) takes 2 arguments");
        return NULL;
    }
    if (!as_u64(args[0], &h)) return NULL;
    if (!PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "a stream name is a str");
        return NULL;
    }
    bytes = PyUnicode_AsUTF8AndSize(args[1], &size);
    if (bytes == NULL) return NULL;
    for (Py_ssize_t i = 0; i < size; i++) h = splitmix64(h ^ (uint64_t)(unsigned char)bytes[i]);
    return PyLong_FromUnsignedLongLong(h);
}

/* draw(seed, n): the n-th draw of a stream. */
static PyObject *py_draw(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t seed, n;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "draw(seed, n) takes 2 arguments");
        return NULL;
    }
    if (!as_u64(args[0], &seed) || !as_u64(args[1], &n)) return NULL;
    return PyLong_FromUnsignedLongLong(draw(seed, n));
}

/* below(seed, n, bound): the n-th draw scaled into [0, bound). */
static PyObject *py_below(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t seed, n, bound;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "below(seed, n, bound) takes 3 arguments");
        return NULL;
    }
    if (!as_u64(args[0], &seed) || !as_u64(args[1], &n) || !as_bound(args[2], &bound)) return NULL;
    return PyLong_FromUnsignedLongLong(scale(draw(seed, n), bound));
}

/* shuffle(seed, counter, items): Fisher-Yates in place from the last position
 * down, draws counter + 1, counter + 2, ...; returns the counter after it. */
static PyObject *py_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t seed, counter;
    PyObject *list;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "shuffle(seed, counter, items) takes 3 arguments");
        return NULL;
    }
    if (!as_u64(args[0], &seed) || !as_u64(args[1], &counter)) return NULL;
    list = args[2];
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "shuffle needs a list");
        return NULL;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(list) - 1; i > 0; i--) {
        counter++;
        Py_ssize_t j = (Py_ssize_t)scale(draw(seed, counter), (uint64_t)i + 1);
        PyObject *item = PyList_GET_ITEM(list, i);
        PyList_SET_ITEM(list, i, PyList_GET_ITEM(list, j));
        PyList_SET_ITEM(list, j, item);
    }
    return PyLong_FromUnsignedLongLong(counter);
}

static PyMethodDef methods[] = {
    {"splitmix64", (PyCFunction)py_splitmix64, METH_O, "SplitMix64's mixing function, modulo 2**64."},
    {"derive_seed", (PyCFunction)(void (*)(void))py_derive_seed, METH_FASTCALL, "A named stream's seed."},
    {"draw", (PyCFunction)(void (*)(void))py_draw, METH_FASTCALL, "The n-th draw of a stream."},
    {"below", (PyCFunction)(void (*)(void))py_below, METH_FASTCALL, "The n-th draw scaled into [0, bound)."},
    {"shuffle", (PyCFunction)(void (*)(void))py_shuffle, METH_FASTCALL,
     "Fisher-Yates in place; returns the counter after it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_splitmix", "The chance streams' arithmetic in C (docs/chance.md).", -1, methods,
};

PyMODINIT_FUNC PyInit__splitmix(void) { return PyModule_Create(&module); }
