// The libpq client API. pkg-config (libpq.pc) puts the header's directory on the include path;
// Debian's libpq-dev installs it under /usr/include/postgresql, so fall back to that spelling when
// pkg-config is not available.
#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif

// The error-field codes are character-literal macros, which Swift does not import.
static const int CLibPQDiagSQLState = PG_DIAG_SQLSTATE;
static const int CLibPQDiagMessagePrimary = PG_DIAG_MESSAGE_PRIMARY;

#endif
