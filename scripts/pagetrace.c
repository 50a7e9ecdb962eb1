/* Records which pages of abplayer's own code run, for the release link's symbol order
 * (scripts/build-release.sh). Loaded with LD_PRELOAD: at start it makes the executable's code
 * inaccessible; each first touch of a page faults here, which appends the page's ELF address
 * (decimal, one a line, in the order touched) to $PAGETRACE_OUT and makes the page executable
 * again. Page-level, with no instrumented build: the code that runs includes Foundation's (linked
 * statically) and the compiler's thunks, which no compiler instrumentation sees.
 * Set SWIFT_BACKTRACE=enable=no: the Swift runtime's crash handler would take SIGSEGV over. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t code_start, code_end, load_bias;
static int trace_fd = -1;

/* Called in a signal handler: no stdio. */
static void append_address(uintptr_t address) {
    char digits[32];
    int n = sizeof digits;
    digits[--n] = '\n';
    do { digits[--n] = (char)('0' + address % 10); address /= 10; } while (address);
    ssize_t written = write(trace_fd, digits + n, sizeof digits - n);
    (void)written;
}

static void on_fault(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    if (address < code_start || address >= code_end) {
        signal(signal_number, SIG_DFL);
        raise(signal_number);
        return;
    }
    uintptr_t page = address & ~(uintptr_t)4095;
    append_address(page - load_bias);
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC);
}

static int find_code(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size; (void)unused;
    if (info->dlpi_name && info->dlpi_name[0]) return 0; /* the executable has no name here */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type == PT_LOAD && (segment->p_flags & PF_X)) {
            load_bias = info->dlpi_addr;
            code_start = (load_bias + segment->p_vaddr) & ~(uintptr_t)4095;
            code_end = load_bias + segment->p_vaddr + segment->p_memsz;
        }
    }
    return 1;
}

__attribute__((constructor)) static void start_tracing(void) {
    const char *path = getenv("PAGETRACE_OUT");
    if (!path) return;
    dl_iterate_phdr(find_code, NULL);
    if (!code_start) return;
    trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (trace_fd < 0) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &action, NULL);
    mprotect((void *)code_start, code_end - code_start, PROT_NONE);
}
