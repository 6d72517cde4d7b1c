// Reading inputs (gzip-aware) and writing outputs without leaving
// half-written files behind.
#pragma once

#include <fstream>
#include <string>
#include <string_view>

namespace dispatchctl {

// Whole file; gunzipped when it starts with the gzip magic. InputError on
// a missing file, a directory, or a corrupt gzip stream. "-" is standard
// input. A file that cannot be read twice (a pipe, `<(cmd)`, /dev/stdin) is
// read once: every later read of the same path returns the same bytes.
// "git:REV:PATH" (no such file here) is PATH at REV of the git checkout here,
// read with git show.
std::string read_input_file(const std::string& path);
// False for "-", a pipe or a device: what open_input_file cannot rewind.
bool is_seekable_input(const std::string& path);
// The file opened for reading as it is (no gunzip), with read_input_file's
// errors: for readers that stream. Only for seekable inputs.
std::ifstream open_input_file(const std::string& path);
std::string gunzip(std::string_view data, const std::string& name_for_errors);
bool is_gzip(std::string_view data);
// Writes to PATH.tmp-XXXX then renames, so readers never see a partial file;
// a new file gets the umask's permissions (0644 under 022), an existing one
// keeps its own. A path that is not a regular file (/dev/stdout, a pipe,
// /dev/full) is written in place.
void write_file_atomically(const std::string& path, std::string_view content);
// InputError unless PATH can be written: its folder exists and is writable,
// and PATH is not a folder. For commands that work long before they write.
void require_writable_output(const std::string& path);

}  // namespace dispatchctl
