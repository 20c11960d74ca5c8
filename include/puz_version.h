/*
 * puz_version.h - the release number, kept here and nowhere else: the
 * CLI's --version, /v1/catalog, the Server header, the build-info metric
 * and (read by the Makefile from the three numbers below, in this order)
 * the shared library's soname and puzzled.pc all come from it.
 * CHANGELOG.md says what each release changed and what MAJOR, MINOR and
 * PATCH promise.
 */
#ifndef PUZ_VERSION_H
#define PUZ_VERSION_H

#define PUZ_VERSION_MAJOR 0
#define PUZ_VERSION_MINOR 1
#define PUZ_VERSION_PATCH 0

#define PUZ__VERSION_STR(x) #x
#define PUZ__VERSION_XSTR(x) PUZ__VERSION_STR(x)
/* "MAJOR.MINOR.PATCH", for people and protocols. */
#define PUZ_VERSION PUZ__VERSION_XSTR(PUZ_VERSION_MAJOR) "." \
    PUZ__VERSION_XSTR(PUZ_VERSION_MINOR) "." \
    PUZ__VERSION_XSTR(PUZ_VERSION_PATCH)
/* One number that orders releases, for #if: 1.2.3 is 10203. */
#define PUZ_VERSION_NUM (PUZ_VERSION_MAJOR * 10000 + \
    PUZ_VERSION_MINOR * 100 + PUZ_VERSION_PATCH)

/* The release of the library that is running, which may be newer than
 * the header a program was compiled with (a shared library upgraded
 * under it): PUZ_VERSION as that library was built. */
const char *puz_version(void);

#endif
