#include "util/file_io.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
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
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw InputError(name + ": cannot start gzip decoder");
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
        throw InputError(name + ": gzip data inflates to more than 512 MiB; refusing it (a gzip bomb?)");
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
    throw InputError(name + ": corrupt or truncated gzip data; re-create the file with gzip");
  return out;
}

std::ifstream open_input_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path + ": is a directory; give a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno) + "; check the path");
  return in;
}

std::string read_input_file(const std::string& path) {
  // git:REV:PATH — the file as it is at REV in the checkout here (`check --base git:origin/main:my.json`).
  if (path.rfind("git:", 0) == 0 && path.find(':', 4) != std::string::npos && !std::filesystem::exists(path)) {
    const size_t colon = path.find(':', 4);
    std::optional<std::string> text = git_show(path.substr(4, colon - 4), "./" + path.substr(colon + 1));
    if (!text) throw InputError(path + ": no such file at that revision (the path is relative to the current directory)");
    if (is_gzip(*text)) return gunzip(*text, path);
    return std::move(*text);
  }
  std::ifstream in = open_input_file(path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string data = std::move(buffer).str();
  if (is_gzip(data)) return gunzip(data, path);
  return data;
}

void write_file_atomically(const std::string& path, std::string_view content) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw InputError(path + ": cannot write: " + std::strerror(errno));
  bool ok = true;
  for (size_t done = 0; ok && done < content.size();) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) ok = errno == EINTR;
    else done += static_cast<size_t>(n);
  }
  ok = (::close(fd) == 0) && ok;
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temp.c_str());
    throw InputError(path + ": cannot write: " + reason);
  }
}

}  // namespace dispatchctl
