/*
 * idem.c - the Idempotency-Key of POST /v1/jobs (IETF draft
 * httpapi-idempotency-key-header): the header read and checked, the key
 * scoped to its caller and the body fingerprinted, both as SHA-256 in
 * hex (struct jobs_idem), which is all the two backends keep and
 * compare.
 *
 * The header: the draft's form, a structured-field string
 * ("8e03978e-40d5-43e8-bc93-6894a57f9324"), or the bare key as most
 * clients send it; 1 to API_IDEM_KEY_MAX printable ASCII characters
 * either way, and one header (two are refused: which one meant?).
 * The scope: an API key's name, else the client's address (as the
 * rate limits see it), so two callers never share a key and nobody
 * probes another's keys. Same body means the same bytes: a fingerprint
 * of the body as sent, no canonical JSON.
 */
#include "api_int.h"

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#define API_IDEM_KEY_MAX 255
#define API_IDEM_HEADER "Idempotency-Key"

/* SHA-256 of the n pieces (lengths in lens) as hex into out
 * (JOBS_IDEM_LEN + 1 bytes). False when libcrypto failed. */
static bool sha256_hex(const void *const *parts, const size_t *lens,
                       size_t n, char *out)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *x = EVP_MD_CTX_new();
    bool ok = x != NULL && EVP_DigestInit_ex(x, EVP_sha256(), NULL) == 1;

    for (size_t i = 0; ok && i < n; i++)
        ok = EVP_DigestUpdate(x, parts[i], lens[i]) == 1;
    ok = ok && EVP_DigestFinal_ex(x, md, &mdlen) == 1
         && mdlen * 2 == JOBS_IDEM_LEN;
    EVP_MD_CTX_free(x);
    for (unsigned i = 0; ok && i < mdlen; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    return ok;
}

/*
 * The key the header value v carries into key (API_IDEM_KEY_MAX + 1
 * bytes), its length in *n; NULL when it is one, else why not (for
 * the problem's detail).
 */
static const char *key_of(const char *v, char *key, size_t *n)
{
    bool quoted = v[0] == '"';
    const char *p = v + quoted;

    *n = 0;
    for (; *p != '\0' && !(quoted && *p == '"'); p++) {
        unsigned char ch = (unsigned char)*p;

        if (quoted && ch == '\\') {
            ch = (unsigned char)*++p;
            if (ch != '"' && ch != '\\')
                return "has a backslash that escapes neither '\"' nor "
                       "'\\' (a structured-field string)";
        } else if (!quoted && (ch == '"' || ch == ',')) {
            return "holds a '\"' or ',' outside a quoted string (more "
                   "than one key, or a broken one)";
        }
        if (ch < 0x20 || ch > 0x7e)
            return "holds a byte that is not printable ASCII";
        if (*n == API_IDEM_KEY_MAX)
            return "is longer than 255 characters";
        key[(*n)++] = (char)ch;
    }
    key[*n] = '\0';
    if (quoted && (*p != '"' || p[1] != '\0'))
        return "is not one quoted string (an unclosed quote, or more "
               "after it: one Idempotency-Key header, one key)";
    return *n == 0 ? "is empty" : NULL;
}

/* The key's digest, scoped: "key:NAME" or "addr:ADDRESS", a NUL, the
 * key (no two scopes meet), into out. */
static bool scoped_digest(const struct api_call *c, const char *key,
                          size_t n, char *out)
{
    const char *kind = c->key != NULL ? "key:" : "addr:";
    const char *scope = c->key != NULL ? c->key->name
                        : c->rq.client != NULL ? c->rq.client : "-";
    const void *parts[] = { kind, scope, "", key };
    const size_t lens[] = { strlen(kind), strlen(scope), 1, n };

    return sha256_hex(parts, lens, 4, out);
}

bool api__jobs_idem(struct api_call *c, struct jobs_idem *idem)
{
    const char *v = c->rq.idempotency_key, *why;
    const void *body[] = { c->rq.body != NULL ? c->rq.body : "" };
    const size_t len[] = { c->rq.body != NULL ? c->rq.len : 0 };
    char key[API_IDEM_KEY_MAX + 1];
    size_t n;

    memset(idem, 0, sizeof(*idem));
    if (v == NULL)
        return true;
    why = key_of(v, key, &n);
    if (why != NULL) {
        api_answer_problemf(c, API_PROBLEM_INVALID_HEADER, "the "
                            API_IDEM_HEADER " header %s; send one key of "
                            "1 to %d printable ASCII characters, best a "
                            "random UUID, as \"KEY\" or bare", why,
                            API_IDEM_KEY_MAX);
        return false;
    }
    if (!scoped_digest(c, key, n, idem->key)
        || !sha256_hex(body, len, 1, idem->body)) {
        memset(idem, 0, sizeof(*idem));
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "cannot fingerprint "
                            "the " API_IDEM_HEADER " (libcrypto failed)");
        return false;
    }
    return true;
}

void api__jobs_idem_reused(struct api_call *c)
{
    api_answer_problemf(c, API_PROBLEM_IDEMPOTENCY_REUSED, "this "
                        API_IDEM_HEADER " was used for a job with another "
                        "body (bytes differ) in the last %u hours; a "
                        "retry sends the same bytes, a new request a new "
                        "key", JOBS_IDEM_TTL_S / 3600);
}

void api__jobs_replayed(struct api_call *c)
{
    /* Not in the draft, which names no such header; Stripe's name. */
    api_answer_header(c, "Idempotent-Replayed", "true");
}
