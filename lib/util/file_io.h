// Reading inputs (gzip-aware) and writing outputs without leaving
// half-written files behind.
#pragma once

#include <fstream>
#include <string>
#include <string_view>

namespace dispatchctl {

// Whole file; gunzipped when it starts with the gzip magic. InputError on
// a missing file, a directory, or a corrupt gzip stream. "git:REV:PATH" (no such
// file here) is PATH at REV of the git checkout here, read with git show.
std::string read_input_file(const std::string& path);
// The file opened for reading as it is (no gunzip), with read_input_file's
// errors: for readers that stream.
std::ifstream open_input_file(const std::string& path);
std::string gunzip(std::string_view data, const std::string& name_for_errors);
bool is_gzip(std::string_view data);
// Writes to PATH.tmp-XXXX then renames, so readers never see a partial file.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace dispatchctl
