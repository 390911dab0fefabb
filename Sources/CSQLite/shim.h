#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>
#include <string.h>

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

/* ---------------------------------------------------------------------------------------------
   "store-gathered-wal": the default VFS, except that a WAL file's writes are gathered in memory
   and written with one write(2) when SQLite next syncs, reads, truncates or sizes that file.

   SQLite writes each WAL frame as two writes (its 24-byte header, then the page), so a commit of
   a hundred pages was two hundred system calls. Gathered, it is one. What reaches the disk, and
   in which order, is unchanged: every byte is written before the fsync that makes the commit
   durable, and frames are checksummed, so a crash before that fsync leaves the same valid prefix
   as before.

   Other connections read the WAL through their own file descriptors, and only the frames the
   wal-index says are committed. SQLite publishes a commit there after its fsync only when the
   connection runs with synchronous=FULL (or EXTRA): so only such a connection may open a database
   with this VFS (the driver's writer does). Main database files and rollback journals are opened
   by the default VFS as they are, with nothing in between. */

#define CSQLITE_GATHERED_WAL_VFS "store-gathered-wal"
/* 64 KiB: sixteen frames of 4 KiB pages. The default VFS writes an amount of 128 KiB or more in
   pieces of that amount modulo 128 KiB, so a multiple of 128 KiB would come back as a failed
   (zero-byte) write; every write made here stays below that. */
#define CSQLITE_GATHERED_WAL_CAPACITY (64 * 1024)

typedef struct csqlite_gathered_wal {
    sqlite3_file base;          /* pMethods: the VFS data's methods (csqlite_gathered_wal_vfs_data) */
    sqlite3_file *file;         /* the default VFS's file, in the memory after this struct */
    unsigned char *buffer;      /* CSQLITE_GATHERED_WAL_CAPACITY bytes, allocated at the first write */
    sqlite3_int64 start;        /* the file offset of buffer[0] */
    int used;                   /* bytes gathered */
    sqlite3_int64 asked;        /* writes SQLite asked for */
    sqlite3_int64 made;         /* writes made to the file */
} csqlite_gathered_wal;

static inline int csqlite_gathered_wal_flush(csqlite_gathered_wal *wal) {
    if (wal->used == 0) return SQLITE_OK;
    int used = wal->used;
    wal->used = 0;
    wal->made += 1;
    return wal->file->pMethods->xWrite(wal->file, wal->buffer, used, wal->start);
}

static inline int csqlite_gathered_wal_close(sqlite3_file *base) {
    csqlite_gathered_wal *wal = (csqlite_gathered_wal *)base;
    int rc = csqlite_gathered_wal_flush(wal);
    int closed = wal->file->pMethods->xClose(wal->file);
    sqlite3_free(wal->buffer);
    wal->buffer = 0;
    return rc != SQLITE_OK ? rc : closed;
}

/* The default VFS's file under `base`. */
static inline sqlite3_file *csqlite_gathered_wal_inner(sqlite3_file *base) {
    return ((csqlite_gathered_wal *)base)->file;
}

/* The default VFS's file under `base`, once what was gathered is written to it; NULL, with the
   error in *rc, when that write failed. */
static inline sqlite3_file *csqlite_gathered_wal_flushed(sqlite3_file *base, int *rc) {
    *rc = csqlite_gathered_wal_flush((csqlite_gathered_wal *)base);
    return *rc == SQLITE_OK ? csqlite_gathered_wal_inner(base) : 0;
}

static inline int csqlite_gathered_wal_read(sqlite3_file *base, void *out, int amount, sqlite3_int64 offset) {
    int rc;
    sqlite3_file *file = csqlite_gathered_wal_flushed(base, &rc);
    return file ? file->pMethods->xRead(file, out, amount, offset) : rc;
}

static inline int csqlite_gathered_wal_write(sqlite3_file *base, const void *bytes, int amount,
                                             sqlite3_int64 offset) {
    csqlite_gathered_wal *wal = (csqlite_gathered_wal *)base;
    wal->asked += 1;
    /* Only writes that continue the gathered ones are joined to them. */
    if (wal->used > 0 && (offset != wal->start + wal->used || amount > CSQLITE_GATHERED_WAL_CAPACITY - wal->used)) {
        int rc = csqlite_gathered_wal_flush(wal);
        if (rc != SQLITE_OK) return rc;
    }
    if (wal->buffer == 0 && amount <= CSQLITE_GATHERED_WAL_CAPACITY) {
        wal->buffer = (unsigned char *)sqlite3_malloc(CSQLITE_GATHERED_WAL_CAPACITY);
    }
    if (wal->buffer == 0 || amount > CSQLITE_GATHERED_WAL_CAPACITY) {
        wal->made += 1;
        return wal->file->pMethods->xWrite(wal->file, bytes, amount, offset);
    }
    if (wal->used == 0) wal->start = offset;
    memcpy(wal->buffer + wal->used, bytes, (size_t)amount);
    wal->used += amount;
    return SQLITE_OK;
}

static inline int csqlite_gathered_wal_truncate(sqlite3_file *base, sqlite3_int64 size) {
    int rc;
    sqlite3_file *file = csqlite_gathered_wal_flushed(base, &rc);
    return file ? file->pMethods->xTruncate(file, size) : rc;
}

static inline int csqlite_gathered_wal_sync(sqlite3_file *base, int flags) {
    int rc;
    sqlite3_file *file = csqlite_gathered_wal_flushed(base, &rc);
    return file ? file->pMethods->xSync(file, flags) : rc;
}

static inline int csqlite_gathered_wal_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    int rc;
    sqlite3_file *file = csqlite_gathered_wal_flushed(base, &rc);
    return file ? file->pMethods->xFileSize(file, size) : rc;
}

/* Whatever a file control does to the file, it sees every byte written. */
static inline int csqlite_gathered_wal_file_control(sqlite3_file *base, int op, void *argument) {
    int rc;
    sqlite3_file *file = csqlite_gathered_wal_flushed(base, &rc);
    return file ? file->pMethods->xFileControl(file, op, argument) : rc;
}

static inline int csqlite_gathered_wal_lock(sqlite3_file *base, int level) {
    sqlite3_file *file = csqlite_gathered_wal_inner(base);
    return file->pMethods->xLock(file, level);
}

static inline int csqlite_gathered_wal_unlock(sqlite3_file *base, int level) {
    sqlite3_file *file = csqlite_gathered_wal_inner(base);
    return file->pMethods->xUnlock(file, level);
}

static inline int csqlite_gathered_wal_check_reserved_lock(sqlite3_file *base, int *reserved) {
    sqlite3_file *file = csqlite_gathered_wal_inner(base);
    return file->pMethods->xCheckReservedLock(file, reserved);
}

static inline int csqlite_gathered_wal_sector_size(sqlite3_file *base) {
    sqlite3_file *file = csqlite_gathered_wal_inner(base);
    return file->pMethods->xSectorSize(file);
}

static inline int csqlite_gathered_wal_device_characteristics(sqlite3_file *base) {
    sqlite3_file *file = csqlite_gathered_wal_inner(base);
    return file->pMethods->xDeviceCharacteristics(file);
}

/* What the VFS keeps: the default VFS it wraps and the WAL files' methods. */
typedef struct csqlite_gathered_wal_vfs_data {
    sqlite3_vfs *underlying;
    sqlite3_io_methods methods;
} csqlite_gathered_wal_vfs_data;

/* The default VFS under `vfs`. */
static inline sqlite3_vfs *csqlite_gathered_wal_underlying(sqlite3_vfs *vfs) {
    return ((csqlite_gathered_wal_vfs_data *)vfs->pAppData)->underlying;
}

static inline int csqlite_gathered_wal_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags,
                                            int *outFlags) {
    csqlite_gathered_wal_vfs_data *data = (csqlite_gathered_wal_vfs_data *)vfs->pAppData;
    if ((flags & SQLITE_OPEN_WAL) == 0) {
        /* Not a WAL file: the default VFS's file, with its own methods, in the same memory. */
        return data->underlying->xOpen(data->underlying, name, base, flags, outFlags);
    }
    csqlite_gathered_wal *wal = (csqlite_gathered_wal *)base;
    memset(wal, 0, sizeof(*wal));
    wal->file = (sqlite3_file *)(wal + 1);
    int rc = data->underlying->xOpen(data->underlying, name, wal->file, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (wal->file->pMethods != 0) wal->file->pMethods->xClose(wal->file);
        base->pMethods = 0;
        return rc;
    }
    base->pMethods = &data->methods;
    return SQLITE_OK;
}

static inline int csqlite_gathered_wal_delete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xDelete(underlying, name, syncDirectory);
}

static inline int csqlite_gathered_wal_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xAccess(underlying, name, flags, result);
}

static inline int csqlite_gathered_wal_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xFullPathname(underlying, name, size, out);
}

static inline void *csqlite_gathered_wal_dl_open(sqlite3_vfs *vfs, const char *name) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xDlOpen(underlying, name);
}

static inline void csqlite_gathered_wal_dl_error(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    underlying->xDlError(underlying, size, out);
}

static inline void (*csqlite_gathered_wal_dl_sym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xDlSym(underlying, library, symbol);
}

static inline void csqlite_gathered_wal_dl_close(sqlite3_vfs *vfs, void *library) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    underlying->xDlClose(underlying, library);
}

static inline int csqlite_gathered_wal_randomness(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xRandomness(underlying, size, out);
}

static inline int csqlite_gathered_wal_sleep(sqlite3_vfs *vfs, int microseconds) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xSleep(underlying, microseconds);
}

static inline int csqlite_gathered_wal_current_time(sqlite3_vfs *vfs, double *now) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xCurrentTime(underlying, now);
}

static inline int csqlite_gathered_wal_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    return underlying->xGetLastError != 0 ? underlying->xGetLastError(underlying, size, out) : 0;
}

static inline int csqlite_gathered_wal_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    sqlite3_vfs *underlying = csqlite_gathered_wal_underlying(vfs);
    if (underlying->iVersion >= 2 && underlying->xCurrentTimeInt64 != 0) {
        return underlying->xCurrentTimeInt64(underlying, now);
    }
    double days = 0;
    int rc = underlying->xCurrentTime(underlying, &days);
    *now = (sqlite3_int64)(days * 86400000.0);
    return rc;
}

/* Registers the VFS (not as the default) once; SQLITE_OK when it is registered, now or before.
   Not safe to call from two threads at once: the driver calls it from a Swift static's
   initializer, which runs once. */
static inline int csqlite_register_gathered_wal_vfs(void) {
    if (sqlite3_vfs_find(CSQLITE_GATHERED_WAL_VFS) != 0) return SQLITE_OK;
    sqlite3_vfs *underlying = sqlite3_vfs_find(0);
    if (underlying == 0) return SQLITE_ERROR;
    sqlite3_vfs *vfs = (sqlite3_vfs *)sqlite3_malloc(sizeof(sqlite3_vfs));
    csqlite_gathered_wal_vfs_data *data =
        (csqlite_gathered_wal_vfs_data *)sqlite3_malloc(sizeof(csqlite_gathered_wal_vfs_data));
    if (vfs == 0 || data == 0) {
        sqlite3_free(vfs);
        sqlite3_free(data);
        return SQLITE_NOMEM;
    }
    memset(vfs, 0, sizeof(*vfs));
    memset(data, 0, sizeof(*data));
    data->underlying = underlying;
    data->methods.iVersion = 1;
    data->methods.xClose = csqlite_gathered_wal_close;
    data->methods.xRead = csqlite_gathered_wal_read;
    data->methods.xWrite = csqlite_gathered_wal_write;
    data->methods.xTruncate = csqlite_gathered_wal_truncate;
    data->methods.xSync = csqlite_gathered_wal_sync;
    data->methods.xFileSize = csqlite_gathered_wal_file_size;
    data->methods.xLock = csqlite_gathered_wal_lock;
    data->methods.xUnlock = csqlite_gathered_wal_unlock;
    data->methods.xCheckReservedLock = csqlite_gathered_wal_check_reserved_lock;
    data->methods.xFileControl = csqlite_gathered_wal_file_control;
    data->methods.xSectorSize = csqlite_gathered_wal_sector_size;
    data->methods.xDeviceCharacteristics = csqlite_gathered_wal_device_characteristics;
    vfs->iVersion = 2;
    vfs->szOsFile = (int)sizeof(csqlite_gathered_wal) + underlying->szOsFile;
    vfs->mxPathname = underlying->mxPathname;
    vfs->zName = CSQLITE_GATHERED_WAL_VFS;
    vfs->pAppData = data;
    vfs->xOpen = csqlite_gathered_wal_open;
    vfs->xDelete = csqlite_gathered_wal_delete;
    vfs->xAccess = csqlite_gathered_wal_access;
    vfs->xFullPathname = csqlite_gathered_wal_full_pathname;
    vfs->xDlOpen = csqlite_gathered_wal_dl_open;
    vfs->xDlError = csqlite_gathered_wal_dl_error;
    vfs->xDlSym = csqlite_gathered_wal_dl_sym;
    vfs->xDlClose = csqlite_gathered_wal_dl_close;
    vfs->xRandomness = csqlite_gathered_wal_randomness;
    vfs->xSleep = csqlite_gathered_wal_sleep;
    vfs->xCurrentTime = csqlite_gathered_wal_current_time;
    vfs->xGetLastError = csqlite_gathered_wal_get_last_error;
    vfs->xCurrentTimeInt64 = csqlite_gathered_wal_current_time_int64;
    int rc = sqlite3_vfs_register(vfs, 0);
    if (rc != SQLITE_OK) {
        sqlite3_free(vfs);
        sqlite3_free(data);
    }
    return rc;
}

/* The writes SQLite asked for on a connection's WAL file and those made to the file, when the
   connection's WAL file is one of this VFS's; 0 (and nothing set) otherwise. */
static inline int csqlite_gathered_wal_writes(sqlite3 *db, sqlite3_int64 *asked, sqlite3_int64 *made) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(CSQLITE_GATHERED_WAL_VFS);
    sqlite3_file *file = 0;
    if (vfs == 0 || sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) != SQLITE_OK ||
        file == 0 || file->pMethods != &((csqlite_gathered_wal_vfs_data *)vfs->pAppData)->methods) {
        return 0;
    }
    *asked = ((csqlite_gathered_wal *)file)->asked;
    *made = ((csqlite_gathered_wal *)file)->made;
    return 1;
}

/* Extended result codes are macros built with `|` and `<<`, which Swift does not import. */
static const int csqlite_constraint_check = SQLITE_CONSTRAINT_CHECK;
static const int csqlite_constraint_foreignkey = SQLITE_CONSTRAINT_FOREIGNKEY;
static const int csqlite_constraint_notnull = SQLITE_CONSTRAINT_NOTNULL;
static const int csqlite_constraint_primarykey = SQLITE_CONSTRAINT_PRIMARYKEY;
static const int csqlite_constraint_rowid = SQLITE_CONSTRAINT_ROWID;
static const int csqlite_constraint_unique = SQLITE_CONSTRAINT_UNIQUE;

#endif
