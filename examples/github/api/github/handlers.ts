/**
 * TypeScript handlers of the GitHub fake's writes: they build issues and comments in the full
 * shape GitHub's description requires. The reads are JSONata, in fakes.yaml.
 */
import { defineApiHandlers } from "eval-simulate";
// Generated from fakes.yaml by `eval-simulate types` (validate warns when it is stale).
import type { GithubApi } from "../../fakes.js";

const REAL = "https://api.github.com";

/** A user as GitHub's `simple-user` schema describes one. */
export function user(login: string, id: number) {
  const url = `${REAL}/users/${login}`;
  return {
    login,
    id,
    node_id: `U_${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}`,
    gravatar_id: "",
    url,
    html_url: `https://github.com/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: "User",
    site_admin: false,
  };
}

const AGENT = user("triage-bot", 9001);

interface Issue {
  number: number;
  id: number;
  repository_url: string;
  comments: number;
  updated_at: string;
  [key: string]: unknown;
}

export default defineApiHandlers<GithubApi>({
  "issues/create": (request, { state, now, labelId }) => {
    const { owner, repo } = request.params;
    const input = request.body as { title: string | number; body?: string | null; labels?: Array<string | { name?: string }> };
    const repository = `${REAL}/repos/${owner}/${repo}`;
    const issues = state.issues as Issue[];
    const number = Math.max(0, ...issues.filter((i) => i.repository_url === repository).map((i) => i.number)) + 1;
    const url = `${repository}/issues/${number}`;
    const issue = {
      id: 5000 + issues.length + 1,
      node_id: `I_${labelId(url).slice(0, 8)}`,
      url,
      repository_url: repository,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `https://github.com/${owner}/${repo}/issues/${number}`,
      number,
      state: "open" as const,
      state_reason: null,
      title: String(input.title),
      body: input.body ?? null,
      user: AGENT,
      labels: (input.labels ?? []).map((label, i) => {
        const name = typeof label === "string" ? label : (label.name ?? "");
        return {
          id: 700 + i,
          node_id: `LA_${name}`,
          url: `${repository}/labels/${encodeURIComponent(name)}`,
          name,
          color: "ededed",
          default: false,
          description: null,
        };
      }),
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      active_lock_reason: null,
      comments: 0,
      closed_at: null,
      created_at: now,
      updated_at: now,
      author_association: "MEMBER" as const,
    };
    issues.push(issue);
    return { status: 201, body: issue, headers: { Location: url } };
  },

  "issues/create-comment": (request, { state, now }) => {
    const { owner, repo, issue_number } = request.params;
    const repository = `${REAL}/repos/${owner}/${repo}`;
    const issue = (state.issues as Issue[]).find((i) => i.repository_url === repository && i.number === issue_number);
    if (!issue)
      return { status: 404, body: { message: "Not Found", documentation_url: "https://docs.github.com/rest/issues/comments#create-an-issue-comment" } };
    const comments = state.comments as Array<Record<string, unknown>>;
    const id = 8000 + comments.length + 1;
    const comment = {
      id,
      node_id: `IC_${id}`,
      url: `${repository}/issues/comments/${id}`,
      html_url: `https://github.com/${owner}/${repo}/issues/${issue_number}#issuecomment-${id}`,
      body: request.body.body,
      user: AGENT,
      created_at: now,
      updated_at: now,
      issue_url: `${repository}/issues/${issue_number}`,
      author_association: "MEMBER" as const,
    };
    comments.push(comment);
    issue.comments += 1;
    issue.updated_at = now;
    return { status: 201, body: comment, headers: { Location: comment.url } };
  },
});
