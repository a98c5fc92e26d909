import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

export default function Landing() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Crewboard</p>
      <h1 className="mt-3 text-4xl font-semibold tracking-tight sm:text-5xl">Plan the work. See it move.</h1>
      <p className="mt-4 max-w-xl text-lg text-slate-600">
        Shared boards for small teams: projects, tasks, comments and files, updated the moment anyone changes
        them.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link
          to="/signup"
          className="rounded-md bg-indigo-600 px-4 py-2.5 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Create account
        </Link>
        <Link
          to="/login"
          className="rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-medium hover:bg-slate-100"
        >
          Sign in
        </Link>
      </div>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: 'Crewboard' }];
