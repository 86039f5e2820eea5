/* SPDX-License-Identifier: BSD-3-Clause */
// The launcher's teardown: a failing, killed or hanging PE ends the job within 5 seconds,
// shmem_global_exit's status becomes shmemrun's, and nothing is left in /dev/shm. PEs in
// different collective calls end the job with a message instead of hanging; SHMEM_HANG_TIMEOUT
// and SIGQUIT/SIGUSR1 report where every PE is; no connection can stall the launcher; the job
// secret leaves the PEs' environment; a PE's forked child holds none of the job's memory.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Result {
    int status;     // exit status, or 128 + signal
    double seconds; // wall time
    std::string err;
};

std::set<std::string> dev_shm() {
    std::set<std::string> names;
    if (DIR *d = opendir("/dev/shm")) {
        while (dirent *e = readdir(d))
            names.insert(e->d_name);
        closedir(d);
    }
    return names;
}

Result run(std::vector<std::string> args) {
    char path[] = "/tmp/launcher_test.XXXXXX";
    int err_fd = mkstemp(path);
    auto start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(err_fd, 2);
        std::vector<char *> argv;
        for (auto &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(126);
    }
    // A job that hangs is killed after 30 seconds (its PEs die with the launcher) and fails the
    // test's time limits, rather than hanging the test.
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 3000 && !ended; i++) {
        ended = waitpid(pid, &status, WNOHANG) == pid;
        if (!ended)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    Result r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    close(err_fd);
    unlink(path);
    return r;
}

Result job(int n, const char *mode) {
    return run({SHMEMRUN, "-n", std::to_string(n), HELPER, mode});
}

class Launcher : public ::testing::Test {
  protected:
    void SetUp() override { before_ = dev_shm(); }
    void TearDown() override { EXPECT_EQ(dev_shm(), before_) << "/dev/shm changed"; }
    std::set<std::string> before_;
};

TEST_F(Launcher, AllPesSucceed) {
    Result r = job(4, "ok");
    EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Launcher, NpSpelling) {
    Result r = run({SHMEMRUN, "-np", "2", HELPER, "ok"});
    EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Launcher, NonZeroExitEndsOthers) {
    Result r = job(4, "exit3");
    EXPECT_NE(r.status, 0);
    EXPECT_LT(r.seconds, 5.0);
    EXPECT_NE(r.err.find("PE 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("status 3"), std::string::npos) << r.err;
}

TEST_F(Launcher, KilledPeEndsOthers) {
    Result r = job(2, "sigkill");
    EXPECT_NE(r.status, 0);
    EXPECT_LT(r.seconds, 5.0);
    EXPECT_NE(r.err.find("PE 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("signal 9"), std::string::npos) << r.err;
}

TEST_F(Launcher, HangingPeIsKilled) {
    Result r = job(2, "hang");
    EXPECT_NE(r.status, 0);
    EXPECT_LT(r.seconds, 5.0);
    EXPECT_NE(r.err.find("PE 1"), std::string::npos) << r.err;
}

TEST_F(Launcher, GlobalExitStatus) {
    Result r = job(4, "global_exit7");
    EXPECT_EQ(r.status, 7) << r.err;
    EXPECT_LT(r.seconds, 5.0);
}

TEST_F(Launcher, GlobalExitWhileAnotherThreadWaits) {
    Result r = job(2, "global_exit_while_waiting");
    EXPECT_EQ(r.status, 5) << r.err;
    EXPECT_LT(r.seconds, 5.0);
}

TEST_F(Launcher, ExitWithoutFinalize) {
    Result r = job(2, "no_finalize");
    EXPECT_NE(r.status, 0);
    EXPECT_LT(r.seconds, 5.0);
    EXPECT_NE(r.err.find("without calling shmem_finalize"), std::string::npos) << r.err;
}

// One warning for the whole job, not one per PE; every PE gets NULL and goes on.
TEST_F(Launcher, ExhaustionWarnsOnce) {
    setenv("SHMEM_SYMMETRIC_SIZE", "1M", 1);
    Result r = job(4, "exhaust");
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    EXPECT_EQ(r.status, 0) << r.err;
    size_t count = 0;
    for (size_t at = r.err.find("cannot allocate"); at != std::string::npos;
         at = r.err.find("cannot allocate", at + 1))
        count++;
    EXPECT_EQ(count, 1u) << r.err;
    EXPECT_NE(r.err.find("shmem_malloc: cannot allocate 2097152 bytes"), std::string::npos)
        << r.err;
}

TEST_F(Launcher, WrongSecretIsRefused) {
    Result r = job(2, "wrong_secret");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find("shmemrun refused PE"), std::string::npos) << r.err;
}

TEST_F(Launcher, MissingProgram) {
    Result r = run({SHMEMRUN, "-n", "2", "/nonexistent/program"});
    EXPECT_EQ(r.status, 127) << r.err;
    EXPECT_NE(r.err.find("cannot run"), std::string::npos) << r.err;
}

TEST_F(Launcher, BadCount) {
    Result r = run({SHMEMRUN, "-n", "zero", HELPER});
    EXPECT_EQ(r.status, 2) << r.err;
}

TEST_F(Launcher, SinglePeWithoutLauncher) {
    Result r = run({HELPER, "ok"});
    EXPECT_EQ(r.status, 0) << r.err;
}

// PEs in different collective calls: the job ends, and the message names both PEs and calls.
struct Mismatch {
    const char *mode;
    const char *message;
};

class Mismatched : public ::testing::TestWithParam<Mismatch> {};

TEST_P(Mismatched, EndsTheJobNamingBothCalls) {
    Result r = job(4, GetParam().mode);
    EXPECT_NE(r.status, 0) << r.err;
    EXPECT_LT(r.seconds, 10.0);
    EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Launcher, Mismatched,
    ::testing::Values(
        Mismatch{"finalize_in_barrier",
                 ": shmem_barrier_all: waits for PE 0, which is in shmem_finalize"},
        Mismatch{"return_in_barrier",
                 ": shmem_barrier_all: waits for PE 0, which is in shmem_finalize"},
        Mismatch{"malloc_in_barrier",
                 ": shmem_barrier_all: waits for PE 0, which is in shmem_malloc"},
        Mismatch{"free_in_barrier", ": shmem_barrier_all: waits for PE 0, which is in shmem_free"},
        Mismatch{"barrier_in_malloc", "libshmem: PE 0: shmem_barrier_all: waits for PE "},
        Mismatch{"malloc_in_free", "PEs are in different collective calls (PE 0 in shmem_malloc, "
                                   "contributing 32 bytes; PE 1 in shmem_free, 32 bytes)"}),
    [](const ::testing::TestParamInfo<Mismatch> &info) { return std::string(info.param.mode); });

// A PE that is late is not a hang: nothing is reported.
TEST_F(Launcher, SlowPeIsNotReported) {
    Result r = job(4, "slow_barrier");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("libshmem"), std::string::npos) << r.err;
}

// A waiting PE sleeps: a stuck job does not burn the processors.
TEST_F(Launcher, WaitingPeSleeps) {
    Result r = job(2, "cpu_while_waiting");
    EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Launcher, HangTimeoutReportsAndEnds) {
    setenv("SHMEM_HANG_TIMEOUT", "1", 1);
    Result r = job(4, "stuck_in_program");
    unsetenv("SHMEM_HANG_TIMEOUT");
    EXPECT_NE(r.status, 0) << r.err;
    EXPECT_LT(r.seconds, 10.0);
    EXPECT_NE(r.err.find("SHMEM_HANG_TIMEOUT=1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("): running the program"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("): in shmem_barrier_all, waiting for PE 0"), std::string::npos) << r.err;
}

TEST_F(Launcher, BadHangTimeout) {
    setenv("SHMEM_HANG_TIMEOUT", "soon", 1);
    Result r = job(2, "ok");
    unsetenv("SHMEM_HANG_TIMEOUT");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("SHMEM_HANG_TIMEOUT='soon'"), std::string::npos) << r.err;
}

// SIGQUIT and SIGUSR1 print where every PE is, and the job goes on.
TEST_F(Launcher, ReportOnSignal) {
    char path[] = "/tmp/launcher_test.XXXXXX";
    int err_fd = mkstemp(path);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(err_fd, 2);
        execl(SHMEMRUN, SHMEMRUN, "-n", "3", HELPER, "stuck_in_program", (char *)nullptr);
        _exit(126);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, SIGQUIT);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(pid, SIGUSR1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    int status = 0;
    EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0) << "the report ended the job";
    kill(pid, SIGTERM);
    waitpid(pid, &status, 0);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string err = ss.str();
    close(err_fd);
    unlink(path);
    size_t reports = 0;
    for (size_t at = err.find("where the PEs are"); at != std::string::npos;
         at = err.find("where the PEs are", at + 1))
        reports++;
    EXPECT_EQ(reports, 2u) << err;
    EXPECT_NE(err.find("PE 0 (pid "), std::string::npos) << err;
    EXPECT_NE(err.find("PE 2 (pid "), std::string::npos) << err;
    EXPECT_NE(err.find("in shmem_barrier_all, waiting for PE 0"), std::string::npos) << err;
}

// A connection that sends 3 bytes and stalls does not delay noticing a killed PE.
TEST_F(Launcher, StalledConnectionDoesNotDelayFaults) {
    char path[] = "/tmp/launcher_time.XXXXXX";
    close(mkstemp(path));
    Result r = run({SHMEMRUN, "-n", "2", HELPER, "stalled_connection", path});
    auto end_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count();
    std::ifstream in(path);
    long long killed_ns = 0;
    in >> killed_ns;
    unlink(path);
    EXPECT_NE(r.status, 0) << r.err;
    ASSERT_GT(killed_ns, 0) << r.err;
    EXPECT_LT((double)(end_ns - killed_ns) / 1e9, 1.0) << r.err;
    EXPECT_NE(r.err.find("PE 1 (pid"), std::string::npos) << r.err;
}

// A connection that stalls before presenting the secret is closed.
TEST_F(Launcher, StalledConnectionIsDropped) {
    Result r = job(2, "stalled_is_dropped");
    EXPECT_EQ(r.status, 0) << r.err;
}

// Connections that send garbage or nothing are dropped; the job runs on.
TEST_F(Launcher, GarbageConnectionsAreDropped) {
    Result r = job(2, "garbage_connection");
    EXPECT_EQ(r.status, 0) << r.err;
}

// After shmem_init, the secret is neither in the environment nor in /proc/<pid>/environ.
TEST_F(Launcher, SecretLeavesEnvironment) {
    Result r = job(2, "secret_gone");
    EXPECT_EQ(r.status, 0) << r.err;
}

// A child that a PE forks (without exec) outlives the job holding none of its memory.
TEST_F(Launcher, ForkedChildHoldsNoJobMemory) {
    char path[] = "/tmp/launcher_pids.XXXXXX";
    close(mkstemp(path));
    Result r = run({SHMEMRUN, "-n", "2", HELPER, "fork_child", path});
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<pid_t> children;
    std::ifstream in(path);
    for (int p; in >> p;)
        children.push_back(p);
    unlink(path);
    EXPECT_EQ(children.size(), 2u);
    for (pid_t child : children) {
        std::ifstream maps("/proc/" + std::to_string(child) + "/maps");
        std::string line;
        bool any_map = false;
        while (std::getline(maps, line))
            any_map = any_map || line.find("/memfd:libshmem-heap") != std::string::npos ||
                      line.find("/memfd:libshmem-data") != std::string::npos;
        bool any_fd = false;
        std::string fd_dir = "/proc/" + std::to_string(child) + "/fd";
        if (DIR *d = opendir(fd_dir.c_str())) {
            while (dirent *e = readdir(d)) {
                char target[256];
                ssize_t n =
                    readlink((fd_dir + "/" + e->d_name).c_str(), target, sizeof(target) - 1);
                if (n > 0 && std::string(target, (size_t)n).find("/memfd:libshmem-") == 0)
                    any_fd = true;
            }
            closedir(d);
        }
        EXPECT_FALSE(any_map) << "child " << child << " maps the job's memory";
        EXPECT_FALSE(any_fd) << "child " << child << " holds a descriptor of the job's memory";
        kill(child, SIGKILL);
    }
}

bool alive(pid_t pid) {
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid)
        return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    // A zombie waits for its parent; it no longer runs.
    size_t close = line.rfind(')');
    return !line.empty() && close != std::string::npos && line[close + 2] != 'Z';
}

TEST_F(Launcher, PesDieWithLauncher) {
    char path[] = "/tmp/launcher_pids.XXXXXX";
    close(mkstemp(path));
    pid_t launcher = fork();
    if (launcher == 0) {
        int null_fd = open("/dev/null", O_WRONLY);
        dup2(null_fd, 2);
        execl(SHMEMRUN, SHMEMRUN, "-n", "2", HELPER, "pidfile", path, (char *)nullptr);
        _exit(126);
    }
    std::vector<pid_t> pids;
    for (int i = 0; i < 400 && pids.size() < 2; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        pids.clear();
        std::ifstream in(path);
        for (int p; in >> p;)
            pids.push_back(p);
    }
    ASSERT_EQ(pids.size(), 2u);
    kill(launcher, SIGKILL);
    waitpid(launcher, nullptr, 0);
    bool any_alive = true;
    for (int i = 0; i < 250 && any_alive; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        any_alive = false;
        for (pid_t p : pids)
            any_alive = any_alive || alive(p);
    }
    EXPECT_FALSE(any_alive);
    unlink(path);
}

} // namespace
