/* SPDX-License-Identifier: MIT */
/*
** params_pool.h: the tools' parameters texts of a big manifest compiled on
** a second thread while the loader reads everything else (manifest.c).
**
** Most of a big manifest's bytes are its tools' `parameters:` texts, and
** each is read and compiled on its own. Before the loader's reading
** starts, the pool finds every line `spaces parameters:` whose value ends
** (as toolgov__text_value_end() says) where a token starts, and a worker
** thread reads each such text alone, as a document of its own (the key's
** line and the value's lines, cut where the value ends: the same events
** libyaml gives for the value in the whole file, see manifest.c
** "parameters compiled once per distinct text"), without libyaml when
** params_fast.h can, else with a libyaml parser of its own, and compiles
** it, from the back of the list (and checks its generated C names,
** toolgov__schema_c_tree_distinct). When the loader's reader reaches such a
** text (the skipping reader of reader.h) it asks the pool, which compiles
** the text on the loader's thread if the worker has not started on it, so
** the two threads share the work; a text that compiled cleanly is left out
** and its tree taken when the walk claims the skip. Texts equal to an
** earlier one are compiled once and share its tree, as the memo does.
**
** A text that reports anything read alone (an error, a warning, out of
** memory) is not left out: the loader reads it in place the plain way,
** where it reports at its own place in file order, or turns out not to be
** a tool's parameters at all. A text left out that the walk does not claim
** makes the reading not stand (reader.h), and the loader reads the
** manifest again the plain way. So the pool changes how fast a manifest
** loads, never what it loads to or reports.
**
** Ownership: the pool borrows path and buf (the whole manifest, already
** text-checked and without odd line breaks) until toolgov__ppool_finish(),
** which frees it; the trees it hands out are moved into the arena given to
** finish.
*/
#ifndef TOOLGOV_GEN_PARAMS_POOL_H
#define TOOLGOV_GEN_PARAMS_POOL_H

#include <stddef.h>

#include "arena.h"
#include "schema.h"

typedef struct toolgov__ppool toolgov__ppool;

/* Find the texts and start the worker (when there is one). NULL (read as
** before) when there are fewer than min_texts of them (nothing is
** allocated then), or fewer than min_texts distinct ones (repeats are the
** memo's work), or no thread or memory to be had: out of memory in the
** pool only means no pool, or a reading that does not stand and is done
** again.
** flags 0: a worker when this process may run on 2 CPUs or more, else
** none (the loader's thread compiles every text as its walk reaches it),
** each text read by the reader without libyaml when it can (params_fast.h),
** else by libyaml; TOOLGOV__PPOOL_FORCE: a worker whatever the CPUs (the
** tests' way to run it everywhere); TOOLGOV__PPOOL_ALONE: no worker
** whatever the CPUs; TOOLGOV__PPOOL_LIBYAML: every text read by libyaml
** (the tests' way to compare the two readers). */
#define TOOLGOV__PPOOL_FORCE 1
#define TOOLGOV__PPOOL_LIBYAML 2
#define TOOLGOV__PPOOL_ALONE 4
toolgov__ppool *toolgov__ppool_start(const char *path, const unsigned char *buf, size_t len,
                                     size_t min_texts, int flags);

/* The reader's skip hook (toolgov__reader_skip_fn; ctx is the pool): skip
** the line at ls when a text of the pool starts there and compiled
** cleanly (waiting for the worker, or compiling it on this thread). */
int toolgov__ppool_skip(void *ctx, size_t ls, size_t *colon_end, size_t *resume,
                        size_t *tag);

/* The compiled tree of the text the reader's skip with this tag left out;
** *line: the line of the `parameters:` key the tree's marks belong to.
** NULL (and the pool's result does not stand) only for a tag the hook did
** not hand out. */
const toolgov__snode *toolgov__ppool_take(toolgov__ppool *p, size_t tag, unsigned *line);

/* The worker takes no more texts (the reader will leave nothing more
** out); the trees handed out, and the skips already granted, stay. */
void toolgov__ppool_stop(toolgov__ppool *p);

/* Stop the worker, move every tree into `keep` and free the pool. 0, or
** -1 when toolgov__ppool_take() was given a tag it did not hand out (the
** loader's reading does not stand). p may be NULL (0). */
int toolgov__ppool_finish(toolgov__ppool *p, toolgov__arena *keep);

#endif /* TOOLGOV_GEN_PARAMS_POOL_H */
