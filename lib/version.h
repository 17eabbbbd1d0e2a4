#ifndef DCB_VERSION_H
#define DCB_VERSION_H

/* The Makefile passes the git description; a tarball build falls back to this. */
#ifndef DCBKIT_VERSION
#define DCBKIT_VERSION "0.1.0"
#endif

#endif
