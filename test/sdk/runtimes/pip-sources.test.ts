import { describe, expect, it } from "vitest";
import { DEFAULT_INDEX_HOSTS, readPipHosts, readPipSources } from "../../../sdk/src/runtimes/python/pip-sources.js";

/** Where an install may reach and what it may read, read from the SDK user's pip settings rule by rule. */
describe("pip sources", () => {
  const cwd = "/agent/project";

  it("default: pypi.org and files.pythonhosted.org on 443, nothing local", () => {
    expect(readPipSources([], {}, cwd)).toEqual({ args: [], env: {}, hosts: [...DEFAULT_INDEX_HOSTS], paths: [] });
  });

  it("--index-url replaces the default index, in every spelling; its port comes from the scheme unless given", () => {
    for (const args of [
      ["--index-url", "https://mirror.example.org/simple"],
      ["--index-url=https://mirror.example.org/simple"],
      ["-i", "https://mirror.example.org/simple"],
      ["-ihttps://mirror.example.org/simple"],
    ]) {
      expect(readPipSources(args, {}, cwd).hosts, args.join(" ")).toEqual(["mirror.example.org:443"]);
    }
    expect(readPipSources(["-i", "http://10.0.0.5/simple"], {}, cwd).hosts).toEqual(["10.0.0.5:80"]);
    expect(readPipSources(["-i", "http://[::1]:8080/simple"], {}, cwd).hosts).toEqual(["[::1]:8080"]);
  });

  it("--extra-index-url and find-links URLs add their hosts to the default index", () => {
    const sources = readPipSources(
      ["--extra-index-url", "https://extra.example.org:8443/simple", "-f", "http://links.example.org/wheels/"],
      {},
      cwd,
    );
    expect(sources.hosts).toEqual([...DEFAULT_INDEX_HOSTS, "extra.example.org:8443", "links.example.org:80"]);
  });

  it("--no-index drops every index, the default included, but keeps find-links (pip still reads them)", () => {
    const sources = readPipSources(
      ["--no-index", "-i", "https://mirror.example.org/simple", "--find-links", "https://links.example.org/"],
      {},
      cwd,
    );
    expect(sources.hosts).toEqual(["links.example.org:443"]);
    expect(readPipSources(["--no-index"], {}, cwd).hosts).toEqual([]);
  });

  it("local find-links, constraints and certificates are bound read-only, made absolute from the agent's cwd", () => {
    const sources = readPipSources(
      ["--find-links", "wheels", "-c", "/etc/constraints.txt", "--find-links=file:///opt/wheels", "--cert", "./ca.pem", "-rmore.txt"],
      {},
      cwd,
    );
    expect(sources.paths).toEqual([
      "/agent/project/wheels",
      "/etc/constraints.txt",
      "/opt/wheels",
      "/agent/project/ca.pem",
      "/agent/project/more.txt",
    ]);
    expect(sources.args).toEqual([
      "--find-links",
      "/agent/project/wheels",
      "-c",
      "/etc/constraints.txt",
      "--find-links=/opt/wheels",
      "--cert",
      "/agent/project/ca.pem",
      "-r/agent/project/more.txt",
    ]);
  });

  it("pipEnv's index variables count as the flags do; space-separated lists are read item by item", () => {
    const sources = readPipSources(
      [],
      {
        PIP_INDEX_URL: "https://mirror.example.org/simple",
        PIP_EXTRA_INDEX_URL: "https://a.example.org/simple https://b.example.org/simple",
        PIP_FIND_LINKS: "wheels https://links.example.org/",
        PIP_CONFIG_FILE: "conf/pip.conf",
        PIP_DEFAULT_TIMEOUT: "60",
      },
      cwd,
    );
    expect(sources.hosts).toEqual(["mirror.example.org:443", "a.example.org:443", "b.example.org:443", "links.example.org:443"]);
    expect(sources.paths).toEqual(["/agent/project/wheels", "/agent/project/conf/pip.conf"]);
    expect(sources.env).toEqual({
      PIP_INDEX_URL: "https://mirror.example.org/simple",
      PIP_EXTRA_INDEX_URL: "https://a.example.org/simple https://b.example.org/simple",
      PIP_FIND_LINKS: "/agent/project/wheels https://links.example.org/",
      PIP_CONFIG_FILE: "/agent/project/conf/pip.conf",
      PIP_DEFAULT_TIMEOUT: "60",
    });
  });

  it("PIP_NO_INDEX counts when pip reads it as true; PIP_CONFIG_FILE=/dev/null names no file", () => {
    expect(readPipSources([], { PIP_NO_INDEX: "yes" }, cwd).hosts).toEqual([]);
    expect(readPipSources([], { PIP_NO_INDEX: "0" }, cwd).hosts).toEqual([...DEFAULT_INDEX_HOSTS]);
    expect(readPipSources([], { PIP_CONFIG_FILE: "/dev/null" }, cwd).paths).toEqual([]);
  });

  it("a URL pip cannot read grants nothing and binds nothing", () => {
    expect(readPipSources(["--no-index", "-f", "http://[::1", "-f", "file://elsewhere.example.org/wheels"], {}, cwd)).toMatchObject({
      hosts: [],
      paths: [],
    });
  });

  it("options that name no source are passed through untouched, and a flag without its value is ignored", () => {
    expect(readPipSources(["--pre", "--timeout", "30", "--find-links"], {}, cwd)).toEqual({
      args: ["--pre", "--timeout", "30", "--find-links"],
      env: {},
      hosts: [...DEFAULT_INDEX_HOSTS],
      paths: [],
    });
  });

  it("pipHosts are checked as network capabilities are", () => {
    expect(readPipHosts(["Files.Example.org:443", "*.cdn.example.org"])).toEqual(["files.example.org:443", "*.cdn.example.org"]);
    expect(readPipHosts(undefined)).toEqual([]);
    expect(() => readPipHosts(["https://files.example.org"])).toThrow(
      /pipHosts\[0\] .*is a URL: name the host and port alone, e.g. "files.example.org:443"/,
    );
  });
});
