/*
 * plugin_cli.c - the plugin options of the sysdig CLI: -H name[:initconfig]
 * registers a plugin, -I name[:openparams] picks the source plugin to
 * capture from, -Il lists the plugins, --plugin-config-file reads the
 * plugins section of a Falco-style yaml file.  The parsed options go to
 * cli_opts; loading happens in plugin.c (libsinsp).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "plugin.h"

/* name[:rest] into a copy of name and a pointer to rest ("" when none) */
static const char *split_name(const char *arg, const char **rest)
{
	const char *colon = strchr(arg, ':');
	char *name;

	if (!colon) {
		*rest = "";
		return arg;
	}
	name = strndup(arg, (size_t)(colon - arg));
	*rest = colon + 1;
	return name ? name : arg;
}

int plugin_option(struct cli_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'H':
		if (o->nplugins >= MAX_PLUGINS) {
			fprintf(stderr, "too many plugins (at most %d)\n", MAX_PLUGINS);
			return -1;
		}
		o->plugins[o->nplugins].name = split_name(arg, &o->plugins[o->nplugins].config);
		o->nplugins++;
		return 0;
	case 'I':
		if (!strcmp(arg, "l")) {
			o->list_plugins = 1;
			return 0;
		}
		o->input_plugin = split_name(arg, &o->input_params);
		return 0;
	default:
		o->plugin_config_file = arg;
		return 0;
	}
}

/* one plugin of -Il; -1 with err when its open parameters are malformed */
static int print_plugin(FILE *out, struct plugin *p, char *err, size_t errlen)
{
	fprintf(out, "Name: %s\nDescription: %s\nContact: %s\nVersion: %s\n", p->name, p->description,
		p->contact, p->version);
	fprintf(out, "Init Config Schema: %s\n", p->init_schema ? p->init_schema : "");
	if (p->kind == PLUGIN_KIND_SOURCE) {
		int n;
		struct plugin_open_param *params = plugin_open_params(p, &n, err, errlen);

		if (!params)
			return -1;
		fprintf(out, "Type: source plugin\nID: %u\nSuggested Open Params:\n", p->id);
		for (int i = 0; i < n; i++)
			if (params[i].desc && *params[i].desc)
				fprintf(out, "%s: %s\n", params[i].value, params[i].desc);
			else
				fprintf(out, "%s\n", params[i].value);
		plugin_open_params_free(params, n);
	} else {
		fprintf(out, "Type: extractor plugin\n");
	}
	fputc('\n', out);
	return 0;
}

/* -Il, in the layout of sysdig 0.29.3: all or nothing (a plugin whose
 * open parameters are malformed is one line on stderr, no listing) */
static int list_plugins(FILE *out)
{
	const char *dirs[20];
	size_t nd = plugin_dirs(dirs, 20), len = 0;
	char *text = NULL, err[512];
	FILE *m = open_memstream(&text, &len);
	int rc = 0;

	if (!m) {
		fprintf(stderr, "out of memory\n");
		return -1;
	}
	fputs("Plugin search paths are: ", m);
	for (size_t i = 0; i < nd; i++) {
		size_t n = strlen(dirs[i]);

		fprintf(m, "%s%s ", dirs[i], n && dirs[i][n - 1] == '/' ? "" : "/");
	}
	fprintf(m, "\n%d Plugins Loaded:\n\n", plugin_count());
	for (int i = 0; i < plugin_count() && rc == 0; i++)
		rc = print_plugin(m, plugin_at(i), err, sizeof(err));
	fputc('\n', m);
	fclose(m);
	if (rc == 0)
		fwrite(text, 1, len, out);
	else
		fprintf(stderr, "%s\n", err);
	free(text);
	return rc;
}

/* ------------------------------------------ --plugin-config-file (yaml) */

struct yaml_plugin {
	char name[256], path[4096], init[4096], open[4096];
	int has_open;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	/* a quoted scalar */
	if ((*s == '"' || *s == '\'') && e - s >= 2 && e[-1] == *s) {
		e[-1] = 0;
		s++;
	}
	return s;
}

static int listed(const char *load, const char *name)
{
	char buf[8192], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", load);
	for (char *t = strtok_r(buf, "[], ", &save); t; t = strtok_r(NULL, "[], ", &save))
		if (!strcmp(trim(t), name))
			return 1;
	return 0;
}

/*
 * The plugins section of a Falco configuration: a list of entries with
 * name, library_path, init_config, open_params, and load_plugins: [names]
 * choosing which to load (all when absent).  Flow-style scalars on one
 * line each, as Falco's own examples write them.
 */
static int load_config_file(struct cli_opts *o, const char *path)
{
	static struct yaml_plugin entries[MAX_PLUGINS];
	char line[8192], load[8192] = "";
	int n = -1, in_plugins = 0, has_load = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "could not read or find configuration file %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *l = line, *colon, *key, *val;
		int item = 0;

		if (*trim(l) == '#' || !*trim(l))
			continue;
		if (!isspace((unsigned char)line[0]) && line[0] != '-')
			in_plugins = !strncmp(line, "plugins:", 8);
		if (!strncmp(line, "load_plugins:", 13)) {
			snprintf(load, sizeof(load), "%s", line + 13);
			has_load = 1;
			continue;
		}
		if (!in_plugins)
			continue;
		l = trim(line);
		if (*l == '-') {
			item = 1;
			l = trim(l + 1);
		}
		if (item) {
			if (++n >= MAX_PLUGINS) {
				fclose(f);
				fprintf(stderr, "%s: too many plugins (at most %d)\n", path, MAX_PLUGINS);
				return -1;
			}
			memset(&entries[n], 0, sizeof(entries[n]));
		}
		colon = strchr(l, ':');
		if (!colon || n < 0)
			continue;
		*colon = 0;
		key = trim(l);
		val = trim(colon + 1);
		if (!strcmp(key, "name"))
			snprintf(entries[n].name, sizeof(entries[n].name), "%s", val);
		else if (!strcmp(key, "library_path"))
			snprintf(entries[n].path, sizeof(entries[n].path), "%s", val);
		else if (!strcmp(key, "init_config"))
			snprintf(entries[n].init, sizeof(entries[n].init), "%s", val);
		else if (!strcmp(key, "open_params")) {
			snprintf(entries[n].open, sizeof(entries[n].open), "%s", val);
			entries[n].has_open = 1;
		}
	}
	fclose(f);
	if (n < 0) {
		fprintf(stderr, "%s: no plugins section\n", path);
		return -1;
	}
	for (int i = 0; i <= n; i++) {
		if (has_load && !listed(load, entries[i].name))
			continue;
		if (!entries[i].path[0]) {
			fprintf(stderr, "%s: plugin %s has no library_path\n", path, entries[i].name);
			return -1;
		}
		o->plugins[o->nplugins].name = strdup(entries[i].path);
		o->plugins[o->nplugins].config = strdup(entries[i].init);
		o->nplugins++;
		if (entries[i].has_open && !o->input_plugin) {
			o->input_plugin = o->plugins[o->nplugins - 1].name;
			o->input_params = strdup(entries[i].open);
		}
	}
	return 0;
}

int plugins_setup(struct cli_opts *o)
{
	char err[1024] = "";

	if (o->plugin_config_file) {
		if (o->nplugins || o->input_plugin) {
			fprintf(stderr, "--plugin-config-file cannot be mixed with -H or -I\n");
			return -1;
		}
		if (load_config_file(o, o->plugin_config_file) < 0)
			return -1;
	}
	static struct plugin *registered[MAX_PLUGINS];

	for (int i = 0; i < o->nplugins; i++)
		if (!(registered[i] = plugin_register(o->plugins[i].name, o->plugins[i].config, err,
						      sizeof(err)))) {
			fprintf(stderr, "%s\n", err);
			return -1;
		}
	/* without -H, every plugin of the plugin directories (sysdig 0.29.3
	 * does this on every run) */
	if (!o->nplugins && plugin_register_dirs(err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (o->list_plugins)
		return list_plugins(stdout);
	if (o->input_plugin) {
		/* -I names a plugin as its -H did (a name or a path), or as it
		 * names itself when it came from the directories */
		struct plugin *p = o->nplugins ? NULL : plugin_by_name(o->input_plugin);

		for (int i = 0; i < o->nplugins; i++)
			if (!strcmp(o->plugins[i].name, o->input_plugin))
				p = registered[i];

		if (!p) {
			fprintf(stderr, "plugin %s not loaded. Use -H to load it.\n", o->input_plugin);
			return -1;
		}
		if (p->kind != PLUGIN_KIND_SOURCE) {
			fprintf(stderr, "plugin %s is not a source plugin\n", o->input_plugin);
			return -1;
		}
		if (o->ninputs) {
			fprintf(stderr, "-I cannot be used with -r\n");
			return -1;
		}
		o->source = p;
	}
	return 1;
}
