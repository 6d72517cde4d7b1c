#include "util/file_io.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errors.h"
#include "util/git_show.h"

namespace dispatchctl {

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string gunzip(std::string_view data, const std::string& name) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw InputError({name}, "cannot start gzip decoder");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  out.resize(std::max<size_t>(data.size() * 8, 1 << 16));
  // A gzip bomb (a few MB that inflate to many GB) must fail, not exhaust
  // memory: refuse to inflate past 512 MiB (the real registries are ~10 MB).
  constexpr size_t k_max_inflated = size_t{1} << 29;
  out.resize(std::min(out.size(), k_max_inflated + 1));
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (stream.total_out >= out.size()) {
      if (out.size() > k_max_inflated) {
        inflateEnd(&stream);
        throw InputError({name}, "gzip data inflates to more than 512 MiB; refusing it (a gzip bomb?)");
      }
      out.resize(std::min(out.size() * 2, k_max_inflated + 1));
    }
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + stream.total_out);
    stream.avail_out = static_cast<uInt>(out.size() - stream.total_out);
    status = inflate(&stream, Z_NO_FLUSH);
    if (status == Z_BUF_ERROR && stream.avail_in == 0) break;  // truncated
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) break;
  }
  const bool complete = status == Z_STREAM_END;
  out.resize(stream.total_out);
  inflateEnd(&stream);
  if (!complete)
    throw InputError({name}, "corrupt or truncated gzip data; re-create the file with gzip");
  return out;
}

namespace {

std::string system_path(const std::string& path) { return path == "-" ? "/dev/stdin" : path; }

std::string read_whole(std::istream& in) {
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

// The bytes of inputs that cannot be read twice, by path as given.
std::string read_unseekable_once(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> read_before;
  const std::lock_guard lock(mutex);
  if (auto it = read_before.find(path); it != read_before.end()) return it->second;
  std::ifstream in(system_path(path), std::ios::binary);
  if (!in) throw InputError({path}, std::string("cannot open: ") + std::strerror(errno) + "; check the path");
  return read_before.emplace(path, read_whole(in)).first->second;
}

mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

std::string errno_text() { return std::strerror(errno); }

}  // namespace

bool is_seekable_input(const std::string& path) {
  struct stat st {};
  return path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::ifstream open_input_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError({path}, "is a directory; give a file");
  std::ifstream in(system_path(path), std::ios::binary);
  if (!in) throw InputError({path}, std::string("cannot open: ") + std::strerror(errno) + "; check the path");
  return in;
}

std::string read_input_file(const std::string& path) {
  // git:REV:PATH — the file as it is at REV in the checkout here (`check --base git:origin/main:my.json`).
  std::error_code no_such_file;
  if (path.rfind("git:", 0) == 0 && !std::filesystem::exists(path, no_such_file)) {
    const GitPath at = *parse_git_path(path, true);
    std::optional<std::string> text = git_show(at.revision, "./" + at.path);
    if (!text) throw InputError({path}, "no such file at that revision (the path is relative to the current directory)");
    if (is_gzip(*text)) return gunzip(*text, path);
    return std::move(*text);
  }
  std::string data;
  if (is_seekable_input(path)) {
    std::ifstream in = open_input_file(path);
    data = read_whole(in);
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError({path}, "is a directory; give a file");
    data = read_unseekable_once(path);
  }
  if (is_gzip(data)) return gunzip(data, path);
  return data;
}

namespace {

bool write_all(int fd, std::string_view content) {
  for (size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno != EINTR) return false;
    if (n > 0) done += static_cast<size_t>(n);
  }
  return true;
}

// A device or a pipe cannot be replaced by a rename: written as it is.
void write_in_place(const std::string& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
  if (fd < 0) throw InputError({path}, "cannot write: " + errno_text());
  bool ok = write_all(fd, content);
  const std::string reason = errno_text();
  ok = (::close(fd) == 0) && ok;
  if (!ok) throw InputError({path}, "cannot write: " + reason);
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content) {
  struct stat existing {};
  const bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode) && !S_ISDIR(existing.st_mode)) return write_in_place(path, content);
  if (exists && S_ISDIR(existing.st_mode)) throw InputError({path}, "cannot write: it is a folder; give a file name");
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw InputError({path}, "cannot write: " + errno_text());
  // mkstemp makes 0600; the file gets what any other tool would give it.
  const mode_t mode = exists ? existing.st_mode & 07777 : 0666 & ~current_umask();
  bool ok = ::fchmod(fd, mode) == 0 && write_all(fd, content);
  std::string reason = errno_text();
  ok = (::close(fd) == 0) && ok;
  if (ok && std::rename(temp.c_str(), path.c_str()) != 0) ok = false, reason = errno_text();
  if (!ok) {
    std::remove(temp.c_str());
    throw InputError({path}, "cannot write: " + reason);
  }
}

void require_writable_output(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError({path}, "cannot write: it is a folder; give a file name");
    if (::access(path.c_str(), W_OK) != 0) throw InputError({path}, "cannot write: " + errno_text());
    if (!S_ISREG(st.st_mode)) return;  // a device or a pipe: written in place
  }
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const std::string where = folder.empty() ? "." : folder;
  if (::stat(where.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError({path}, "cannot write: no folder " + where + "; create it or give another path");
  if (::access(where.c_str(), W_OK | X_OK) != 0)
    throw InputError({path}, "cannot write into " + where + ": " + errno_text());
}

}  // namespace dispatchctl
