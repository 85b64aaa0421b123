/* Running other programs (see procs.h). */
#define _GNU_SOURCE
#include "procs.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

pid_t spawn_start(char *const argv[], const struct spawn_io *io)
{
    static const struct spawn_io none = { 0 };
    if (!io)
        io = &none;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    int oflags = O_WRONLY | O_CREAT | (io->append ? O_APPEND : O_TRUNC);
    posix_spawn_file_actions_addopen(&fa, 0, io->in ? io->in : "/dev/null", O_RDONLY, 0);
    if (io->out)
        posix_spawn_file_actions_addopen(&fa, 1, io->out, oflags, 0644);
    if (io->err_to_out)
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    else if (io->err)
        posix_spawn_file_actions_addopen(&fa, 2, io->err, oflags, 0644);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    sigset_t empty, deflt;
    sigemptyset(&empty);
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGINT);
    sigaddset(&deflt, SIGTERM);
    sigaddset(&deflt, SIGPIPE);
    sigaddset(&deflt, SIGCHLD);
    posix_spawnattr_setsigmask(&at, &empty);
    posix_spawnattr_setsigdefault(&at, &deflt);
    if (io->own_group) {
        flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&at, 0);
    }
    posix_spawnattr_setflags(&at, flags);
    char cwd[PATH_MAX];
    bool moved = false;
    if (io->dir) {   /* posix_spawn has no chdir (glibc 2.36's addchdir_np is not everywhere) */
        if (!getcwd(cwd, sizeof(cwd)) || chdir(io->dir) != 0) {
            errorf("cannot enter %s: %s", io->dir, strerror(errno));
            posix_spawn_file_actions_destroy(&fa);
            posix_spawnattr_destroy(&at);
            return -1;
        }
        moved = true;
    }
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    if (moved && chdir(cwd) != 0)
        errorf("cannot go back to %s: %s", cwd, strerror(errno));
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (e) {
        errorf("cannot run %s: %s", argv[0], strerror(e));
        return -1;
    }
    return pid;
}

int spawn_status(int ws)
{
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    if (WIFSIGNALED(ws))
        return 128 + WTERMSIG(ws);
    return -1;
}

int spawn_wait(pid_t pid)
{
    int ws;
    pid_t r;
    while ((r = waitpid(pid, &ws, 0)) < 0 && errno == EINTR)
        ;
    return r == pid ? spawn_status(ws) : -1;
}

int spawn_run(char *const argv[], const struct spawn_io *io)
{
    pid_t pid = spawn_start(argv, io);
    return pid < 0 ? -1 : spawn_wait(pid);
}

char *spawn_capture(char *const argv[], int *rc)
{
    char path[] = "/tmp/schedlab-capture.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        errorf("mkstemp: %s", strerror(errno));
        return NULL;
    }
    close(fd);
    struct spawn_io io = { .out = path };
    int r = spawn_run(argv, &io);
    if (rc)
        *rc = r;
    size_t len;
    char *s = r < 0 ? NULL : read_file(path, &len);
    unlink(path);
    return s;
}

/* Every process's parent, from /proc (pid -> ppid); n entries. */
static size_t parents(pid_t **pids, pid_t **ppids)
{
    size_t n = 0, cap = 0;
    *pids = *ppids = NULL;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[len] = 0;
        const char *rp = strrchr(buf, ')');   /* "PID (COMM) S PPID ...": COMM may hold anything */
        int ppid;
        char state;
        if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            *pids = xrealloc(*pids, cap * sizeof(pid_t));
            *ppids = xrealloc(*ppids, cap * sizeof(pid_t));
        }
        (*pids)[n] = atoi(e->d_name);
        (*ppids)[n] = ppid;
        n++;
    }
    if (d)
        closedir(d);
    return n;
}

/* pid and every process below it, into *tree */
static void collect_tree(pid_t pid, const pid_t *pids, const pid_t *ppids, size_t n, pid_t **tree, size_t *nt, int depth)
{
    *tree = xrealloc(*tree, (*nt + 1) * sizeof(pid_t));
    (*tree)[(*nt)++] = pid;
    for (size_t i = 0; i < n && depth < 16; i++)
        if (ppids[i] == pid)
            collect_tree(pids[i], pids, ppids, n, tree, nt, depth + 1);
}

void spawn_stop(pid_t pid)
{
    if (pid <= 0)
        return;
    /* the boot and every process below it (timeout(1) runs QEMU in a process
     * group of its own, so the boot's group is not enough): all frozen first,
     * so that none goes on to its next command (a shell whose child was
     * stopped would), then each sent SIGTERM, then let go to act on it */
    pid_t *pids, *ppids, *tree = NULL;
    size_t n = parents(&pids, &ppids), nt = 0;
    collect_tree(pid, pids, ppids, n, &tree, &nt, 0);
    for (size_t i = 0; i < nt; i++)
        kill(tree[i], SIGSTOP);
    for (size_t i = 0; i < nt; i++)
        kill(tree[i], SIGTERM);
    for (size_t i = 0; i < nt; i++)
        kill(tree[i], SIGCONT);
    free(tree);
    free(pids);
    free(ppids);
}

void argv_add(struct argv *a, const char *s)
{
    grow(&a->v, &a->cap, a->n + 1, sizeof(*a->v));
    a->v[a->n++] = xstrdup(s);
    a->v[a->n] = NULL;
}

void argv_addf(struct argv *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    argv_add(a, s ? s : "");
    free(s);
}

void argv_free(struct argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof(*a));
}

char *sh_quote(const char *w)
{
    bool plain = *w != 0;
    for (const char *c = w; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=+@%", *c))
            plain = false;
    if (plain)
        return xstrdup(w);
    struct strbuf b = { 0 };
    sb_add(&b, "'");
    for (const char *c = w; *c; c++)
        if (*c == '\'')
            sb_add(&b, "'\\''");
        else
            sb_addn(&b, c, 1);
    sb_add(&b, "'");
    return b.s;
}

char *argv_shell(char *const argv[])
{
    struct strbuf b = { 0 };
    for (size_t i = 0; argv[i]; i++) {
        char *q = sh_quote(argv[i]);
        if (i)
            sb_add(&b, " ");
        sb_add(&b, q);
        free(q);
    }
    return b.s ? b.s : xstrdup("");
}

const char *self_exe(void)
{
    static char path[PATH_MAX];
    if (!path[0]) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
        if (n <= 0)
            strcpy(path, "schedlab");
        else
            path[n] = 0;
    }
    return path;
}

const char *schedlab_root(void)
{
    static char root[PATH_MAX];
    if (root[0])
        return root;
    const char *env = getenv("SCHEDLAB_ROOT");
    if (env && *env) {
        snprintf(root, sizeof(root), "%s", env);
        return root;
    }
    /* build/tools/schedlab: the tree is two directories up; an installed copy has none */
    char exe[PATH_MAX];
    snprintf(exe, sizeof(exe), "%s", self_exe());
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash)
            return NULL;
        *slash = 0;
    }
    char probe[PATH_MAX + 32];
    struct stat st;
    snprintf(probe, sizeof(probe), "%s/tools/qemu-run.sh", exe);
    if (stat(probe, &st) == 0) {
        snprintf(root, sizeof(root), "%s", exe);
        return root;
    }
#ifdef SCHEDLAB_TREE
    /* an installed copy: the tree it was built from */
    snprintf(probe, sizeof(probe), "%s/tools/qemu-run.sh", SCHEDLAB_TREE);
    if (stat(probe, &st) == 0) {
        snprintf(root, sizeof(root), "%s", SCHEDLAB_TREE);
        return root;
    }
#endif
    return NULL;
}
