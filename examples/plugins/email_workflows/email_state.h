/* SPDX-License-Identifier: MIT */
/*
** email_state.h: what the email plugin changes, kept by its host.
**
** The messages themselves are built-in and const; the state records which
** folder each one is in (inbox, Trash, or deleted for good) and counts what
** trash_category and empty_trash did, so a test or the demo can check that a
** replayed call moved nothing more and that a denied empty_trash deleted
** nothing. The host owns it and passes it as the plugin context at mount.
*/
#ifndef TOOLGOV_EXAMPLES_EMAIL_STATE_H
#define TOOLGOV_EXAMPLES_EMAIL_STATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EMAIL_MAX_MESSAGES 64u

typedef enum email_folder {
    EMAIL_INBOX = 0,
    EMAIL_TRASH = 1,
    EMAIL_DELETED = 2
} email_folder;

typedef struct email_state {
    unsigned char folder[EMAIL_MAX_MESSAGES]; /* email_folder of message i */
    size_t message_count;                     /* built-in messages */
    size_t trashed_total;  /* messages trash_category moved, over all calls */
    size_t deleted_total;  /* messages empty_trash deleted, over all calls */
    unsigned trash_calls;  /* times trash_category's handler ran */
    unsigned empty_calls;  /* times empty_trash's handler ran */
} email_state;

/* Every built-in message in the inbox, nothing trashed or deleted. */
void email_state_init(email_state *st);

/* How many messages are in `folder`, in all categories (category NULL) or in
** one ("promotions", ...). */
size_t email_state_count(const email_state *st, email_folder folder,
                         const char *category);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_EXAMPLES_EMAIL_STATE_H */
