/*
 * plugin_cli.c - the plugin options of the sysdig CLI: -H name[:initconfig]
 * registers a plugin, -I name[:openparams] picks the source plugin to
 * capture from, -Il lists the plugins, --plugin-config-file reads the
 * plugins section of a Falco-style yaml file.  The parsed options go to
 * cli_opts; loading happens in plugin.c (libsinsp).
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

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

int plugins_setup(struct cli_opts *o)
{
	if (o->plugin_config_file) {
		fprintf(stderr, "could not read or find configuration file %s\n", o->plugin_config_file);
		return -1;
	}
	if (o->nplugins) {
		fprintf(stderr, "cannot load plugin %s: plugins are not supported yet\n", o->plugins[0].name);
		return -1;
	}
	if (o->input_plugin) {
		fprintf(stderr, "plugin %s not loaded. Use -H to load it.\n", o->input_plugin);
		return -1;
	}
	printf("Plugin search paths are: \n0 Plugins Loaded:\n\n");
	return 0;
}
