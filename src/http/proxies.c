/*
 * proxies.c - who the client is behind a proxy (trusted_proxies): a
 * request whose socket address is a trusted proxy's names its client in
 * X-Forwarded-For, which each proxy appends to (nginx's
 * $proxy_add_x_forwarded_for). Read from the right: the first address
 * that is not a trusted proxy's is the client; anything to its left was
 * written by the client itself and is not believed. Without a trusted
 * proxy the socket's address is the client, whatever the header says.
 * Only the API's view of the client (rate limits) changes; connection
 * limits stay on the socket's address.
 */
#include "http_int.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROXIES_MAX 32

struct http__proxies {
    unsigned n;
    struct cidr {
        int family;
        unsigned char addr[16];
        unsigned bits;
    } net[PROXIES_MAX];
};

static bool parse_addr(const char *s, int *family, unsigned char a[16])
{
    if (inet_pton(AF_INET, s, a) == 1) {
        *family = AF_INET;
        return true;
    }
    if (inet_pton(AF_INET6, s, a) == 1) {
        static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

        /* ::ffff:a.b.c.d is the IPv4 client of a dual-stack socket. */
        if (memcmp(a, mapped, sizeof(mapped)) == 0) {
            memmove(a, a + 12, 4);
            *family = AF_INET;
        } else {
            *family = AF_INET6;
        }
        return true;
    }
    return false;
}

static bool parse_cidr(const char *s, size_t len, struct cidr *c)
{
    char buf[64], *slash, *end;
    long bits;

    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    slash = strchr(buf, '/');
    if (slash != NULL)
        *slash = '\0';
    if (!parse_addr(buf, &c->family, c->addr))
        return false;
    c->bits = c->family == AF_INET ? 32 : 128;
    if (slash == NULL)
        return true;
    bits = strtol(slash + 1, &end, 10);
    if (end == slash + 1 || *end != '\0' || bits < 0
        || bits > (long)c->bits)
        return false;
    c->bits = (unsigned)bits;
    return true;
}

puz_err http__proxies_parse(const char *list, struct http__proxies **out,
                            char *msg, size_t size)
{
    struct http__proxies *p;
    const char *s = list;

    *out = NULL;
    if (list == NULL || list[0] == '\0')
        return PUZ_OK;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return PUZ_ENOMEM;
    while (*s != '\0') {
        size_t len;

        s += strspn(s, " ,");
        len = strcspn(s, " ,");
        if (len == 0)
            break;
        if (p->n == PROXIES_MAX || !parse_cidr(s, len, &p->net[p->n])) {
            snprintf(msg, size, "trusted_proxies: '%.*s' is not a CIDR "
                     "(10.0.0.0/8, ::1/128; at most %d)", (int)len, s,
                     PROXIES_MAX);
            free(p);
            return PUZ_EINVAL;
        }
        p->n++;
        s += len;
    }
    *out = p;
    return PUZ_OK;
}

void http__proxies_free(struct http__proxies *p)
{
    free(p);
}

static bool in_cidr(const struct cidr *c, int family,
                    const unsigned char a[16])
{
    unsigned full = c->bits / 8, rest = c->bits % 8;

    if (family != c->family || memcmp(a, c->addr, full) != 0)
        return false;
    return rest == 0
           || ((a[full] ^ c->addr[full]) & (0xff00u >> rest) & 0xff) == 0;
}

static bool trusted(const struct http__proxies *p, const char *addr)
{
    unsigned char a[16];
    int family;

    if (p == NULL || !parse_addr(addr, &family, a))
        return false;
    for (unsigned i = 0; i < p->n; i++)
        if (in_cidr(&p->net[i], family, a))
            return true;
    return false;
}

const char *http__client_of(const struct http__proxies *p,
                            const char *remote, const char *xff,
                            char *out, size_t size)
{
    const char *client = remote;
    size_t end;

    if (xff == NULL || !trusted(p, remote))
        return remote;
    end = strlen(xff);
    /* Right to left, while the address we hold is a trusted proxy's. */
    while (end > 0 && trusted(p, client)) {
        size_t start = end, len;
        unsigned char a[16];
        char item[HTTP__ADDR_MAX];
        int family;

        while (start > 0 && xff[start - 1] != ',')
            start--;
        len = end - start;
        end = start > 0 ? start - 1 : 0;
        while (len > 0 && (xff[start] == ' ' || xff[start] == '\t')) {
            start++;
            len--;
        }
        while (len > 0 && (xff[start + len - 1] == ' '
                           || xff[start + len - 1] == '\t'))
            len--;
        if (len == 0 || len >= sizeof(item))
            break;
        memcpy(item, xff + start, len);
        item[len] = '\0';
        if (!parse_addr(item, &family, a))
            break;          /* not an address: stop at what we trust */
        snprintf(out, size, "%s", item);
        client = out;
    }
    return client;
}
