/* SPDX-License-Identifier: MIT */
/*
** core_args.c: the parameters of the core's built-in tools, declared in
** code (a plugin declares its tools' parameters in its manifest; the core's
** own tools have no manifest).
**
** Each built-in takes one object of short strings, all required:
**   memory_search               {query}
**   ask_user                    {question}
**   memory_correct              {memory_id, correction}
**   memory_forget               {memory_id}
**   memory_restore              {memory_id}
**   record_feedback             {feedback}
**   promote_recommendation      {recommendation}
**   propose_skill_from_sandbox  {name, description}
**   invoke_pending_action       {action_id}
** Their argument structs are public (args.h, toolgov_core_*_args), so a
** host's handlers read typed fields. The JSON Schema texts are canonical
** (keys in schema order, no whitespace), as the generator writes them.
** Static const data; nothing is owned.
*/
#include "internal.h"

/* A non-empty string of at most 2,000 characters. */
static const toolgov_arg_schema text_node = {
    TOOLGOV_ARG_STRING, 0u, 1, 2000, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, NULL, 0, NULL, 0,
    NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u, NULL, 0
};

#define FIELD_(type, member) \
    { #member, sizeof #member - 1, &text_node, offsetof(type, member), TOOLGOV_ARG_NO_HAS, 1, NULL }
#define OBJECT_(fields, type) \
    { TOOLGOV_ARG_OBJECT, TOOLGOV_ARG_F_CLOSED, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, \
      0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, fields, \
      sizeof(fields) / sizeof((fields)[0]), sizeof(type), 0u, NULL, 0 }

static const toolgov_arg_field memory_search_f[] = {
    FIELD_(toolgov_core_memory_search_args, query)};
static const toolgov_arg_field ask_user_f[] = {FIELD_(toolgov_core_ask_user_args, question)};
static const toolgov_arg_field memory_correct_f[] = {
    FIELD_(toolgov_core_memory_correct_args, memory_id),
    FIELD_(toolgov_core_memory_correct_args, correction)};
static const toolgov_arg_field memory_forget_f[] = {
    FIELD_(toolgov_core_memory_forget_args, memory_id)};
static const toolgov_arg_field memory_restore_f[] = {
    FIELD_(toolgov_core_memory_restore_args, memory_id)};
static const toolgov_arg_field record_feedback_f[] = {
    FIELD_(toolgov_core_record_feedback_args, feedback)};
static const toolgov_arg_field promote_recommendation_f[] = {
    FIELD_(toolgov_core_promote_recommendation_args, recommendation)};
static const toolgov_arg_field propose_skill_f[] = {
    FIELD_(toolgov_core_propose_skill_from_sandbox_args, name),
    FIELD_(toolgov_core_propose_skill_from_sandbox_args, description)};
static const toolgov_arg_field invoke_pending_action_f[] = {
    FIELD_(toolgov_core_invoke_pending_action_args, action_id)};

/* In the order of the built-in rows (TOOLGOV__BUILTIN_* indexes). */
const toolgov_arg_schema toolgov__core_params[TOOLGOV__BUILTIN_COUNT] = {
    OBJECT_(memory_search_f, toolgov_core_memory_search_args),
    OBJECT_(ask_user_f, toolgov_core_ask_user_args),
    OBJECT_(memory_correct_f, toolgov_core_memory_correct_args),
    OBJECT_(memory_forget_f, toolgov_core_memory_forget_args),
    OBJECT_(memory_restore_f, toolgov_core_memory_restore_args),
    OBJECT_(record_feedback_f, toolgov_core_record_feedback_args),
    OBJECT_(promote_recommendation_f, toolgov_core_promote_recommendation_args),
    OBJECT_(propose_skill_f, toolgov_core_propose_skill_from_sandbox_args),
    OBJECT_(invoke_pending_action_f, toolgov_core_invoke_pending_action_args),
};

#define TEXT_ "{\"type\":\"string\",\"minLength\":1,\"maxLength\":2000}"
#define SCHEMA1_(a) \
    "{\"type\":\"object\",\"properties\":{\"" a "\":" TEXT_ "},\"required\":[\"" a \
    "\"],\"additionalProperties\":false}"
#define SCHEMA2_(a, b) \
    "{\"type\":\"object\",\"properties\":{\"" a "\":" TEXT_ ",\"" b "\":" TEXT_ \
    "},\"required\":[\"" a "\",\"" b "\"],\"additionalProperties\":false}"

const char toolgov__core_schema_memory_search[] = SCHEMA1_("query");
const char toolgov__core_schema_ask_user[] = SCHEMA1_("question");
const char toolgov__core_schema_memory_correct[] = SCHEMA2_("memory_id", "correction");
const char toolgov__core_schema_memory_forget[] = SCHEMA1_("memory_id");
const char toolgov__core_schema_memory_restore[] = SCHEMA1_("memory_id");
const char toolgov__core_schema_record_feedback[] = SCHEMA1_("feedback");
const char toolgov__core_schema_promote_recommendation[] = SCHEMA1_("recommendation");
const char toolgov__core_schema_propose_skill_from_sandbox[] = SCHEMA2_("name", "description");
const char toolgov__core_schema_invoke_pending_action[] = SCHEMA1_("action_id");
