/*
 * puz_version.h - the release number every front end reports.
 */
#ifndef PUZ_VERSION_H
#define PUZ_VERSION_H

#define PUZ_VERSION "0.1.0"

#endif
