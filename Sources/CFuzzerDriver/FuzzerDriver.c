#include "FuzzerDriver.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path, int (*callback)(const uint8_t *, size_t)) {
    FILE *file = fopen(path, "rb");
    if (!file) { fprintf(stderr, "signup-fuzz: cannot open %s\n", path); return 1; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    size_t read = fread(data, 1, (size_t)size, file);
    fclose(file);
    callback(data, read);
    free(data);
    return 0;
}

static int replay(const char *path, int (*callback)(const uint8_t *, size_t), int *count) {
    struct stat info;
    if (stat(path, &info) != 0) { fprintf(stderr, "signup-fuzz: no such file %s\n", path); return 1; }
    if (!S_ISDIR(info.st_mode)) { *count += 1; return replay_file(path, callback); }
    DIR *folder = opendir(path);
    if (!folder) return 1;
    struct dirent *entry;
    int failures = 0;
    while ((entry = readdir(folder)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
        failures += replay(child, callback, count);
    }
    closedir(folder);
    return failures;
}

__attribute__((weak))
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) {
    int failures = 0, count = 0;
    for (int index = 1; index < *argc; index++) {
        const char *argument = (*argv)[index];
        if (argument[0] == '-') continue;
        failures += replay(argument, callback, &count);
    }
    fprintf(stderr, "signup-fuzz: replayed %d inputs without libFuzzer (build with -sanitize=fuzzer to fuzz)\n", count);
    return failures == 0 ? 0 : 1;
}
