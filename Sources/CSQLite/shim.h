#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/* Binds UTF-8 text of `length` bytes (embedded NULs included), read by SQLite in place
   (SQLITE_STATIC): the bytes must stay as they are until the statement is reset and its bindings
   cleared. A NULL `bytes` (no bytes) binds the empty string, never SQL NULL. */
static inline int csqlite_bind_text_in_place(sqlite3_stmt *statement, int index, const void *bytes,
                                             sqlite3_uint64 length) {
    const char *text = bytes != 0 && length > 0 ? (const char *)bytes : "";
    return sqlite3_bind_text64(statement, index, text, length, SQLITE_STATIC, SQLITE_UTF8);
}

/* Binds a blob of `length` bytes, read by SQLite in place like csqlite_bind_text_in_place. A zero
   length binds an empty blob (sqlite3_bind_blob64 with a NULL pointer would bind SQL NULL). */
static inline int csqlite_bind_blob_in_place(sqlite3_stmt *statement, int index, const void *bytes,
                                             sqlite3_uint64 length) {
    if (length == 0 || bytes == 0) {
        return sqlite3_bind_zeroblob(statement, index, 0);
    }
    return sqlite3_bind_blob64(statement, index, bytes, length, SQLITE_STATIC);
}

/* Turns off SQLite's memory statistics for the whole process. With them on (the default), every
   allocation SQLite makes takes one process-wide mutex to count itself, which the writer and every
   reader share. Nothing here reads those statistics (sqlite3_memory_used, sqlite3_status). Only
   valid before the library is initialized: it returns SQLITE_MISUSE afterwards, and changes
   nothing. sqlite3_config is variadic, which Swift cannot call. */
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* Extended result codes are macros built with `|` and `<<`, which Swift does not import. */
static const int csqlite_constraint_check = SQLITE_CONSTRAINT_CHECK;
static const int csqlite_constraint_foreignkey = SQLITE_CONSTRAINT_FOREIGNKEY;
static const int csqlite_constraint_notnull = SQLITE_CONSTRAINT_NOTNULL;
static const int csqlite_constraint_primarykey = SQLITE_CONSTRAINT_PRIMARYKEY;
static const int csqlite_constraint_rowid = SQLITE_CONSTRAINT_ROWID;
static const int csqlite_constraint_unique = SQLITE_CONSTRAINT_UNIQUE;

#endif
